//! The RepoCue MCP server: an adapter that serves the library's cues to agents over the Model
//! Context Protocol (stdio), with the official Rust SDK (rmcp).
//!
//! Tools map 1:1 onto [`repocue::Service`] calls (see [`tools`]); resources are cue views
//! addressed by `repocue://<repo-id>/...` URIs (see [`resources`]). The handlers are plain
//! synchronous functions, so they can be tested and reused without a transport; the server
//! glue ([`RepoCueServer`], [`serve_stdio`]) and its stdio framing (lines of at most
//! [`MAX_LINE_BYTES`], malformed ones answered with JSON-RPC errors) hold the only async code
//! of RepoCue.
#![warn(missing_docs)]

pub mod resources;
mod server;
pub mod tools;
mod transport;

pub use server::{serve_stdio, RepoCueServer, INSTRUCTIONS};
pub use transport::MAX_LINE_BYTES;
