//! `repocue completions <shell>` and `repocue man`: generated from the clap definitions, so
//! they never drift from the real arguments.

use clap::CommandFactory;

use super::Cli;
use crate::CommandError;

/// Print a shell completion script (bash, zsh, fish, elvish or powershell) on stdout
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Print the repocue(1) man page (roff) on stdout, e.g. `repocue man > repocue.1`
#[derive(Debug, clap::Args)]
pub struct ManArgs {}

pub fn run_completions(args: CompletionsArgs) -> Result<String, CommandError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "repocue", &mut out);
    text(out)
}

pub fn run_man(_args: ManArgs) -> Result<String, CommandError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| repocue::Error::InvalidArgument(format!("cannot render the man page: {e}")))?;
    text(out)
}

fn text(bytes: Vec<u8>) -> Result<String, CommandError> {
    String::from_utf8(bytes).map_err(|e| {
        repocue::Error::InvalidArgument(format!("generated text is not UTF-8: {e}")).into()
    })
}
