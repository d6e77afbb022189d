use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Install or remove Git hooks that refresh the cache after commits, checkouts, merges and
/// rewrites (existing hooks are kept and called first)
#[derive(Debug, clap::Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum HooksAction {
    /// Install post-commit, post-checkout, post-merge and post-rewrite hooks; each runs
    /// `repocue init` in the background (the baseline the first time, then a refresh) on the
    /// cache named now (--cache-dir, REPOCUE_CACHE_DIR), else the default one
    Install,
    /// Remove RepoCue's hooks and restore the ones they chained (never a hook edited since)
    Uninstall,
}

pub fn run_hooks(service: &Service, args: HooksArgs) -> Result<String, CommandError> {
    let out = match args.action {
        HooksAction::Install => {
            let exe = std::env::current_exe().map_err(|e| {
                repocue::Error::InvalidArgument(format!("cannot locate the repocue binary: {e}"))
            })?;
            service.install_hooks(&exe)?
        }
        HooksAction::Uninstall => service.uninstall_hooks()?,
    };
    Ok(json_line(&out))
}
