use crate::CommandError;

/// Serve cues to agents over MCP (stdio)
#[derive(Debug, clap::Args)]
pub struct ServeArgs {}

/// Serves MCP on stdin/stdout until the client closes stdin; stdout belongs to the protocol,
/// so the command's own output is empty.
pub fn run_serve(opts: repocue::Options, _args: ServeArgs) -> Result<String, CommandError> {
    repocue_mcp::serve_stdio(opts)?;
    Ok(String::new())
}
