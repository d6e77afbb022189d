//! Code structure facts (symbols, imports, referenced names) via `repocue-structure`.

use serde::{Deserialize, Serialize};

/// Structural facts of one source file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CodeFacts {
    /// Parser language name.
    pub language: String,
    /// Why extraction was skipped or failed, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Extracts structure from a source file in a supported language.
pub fn analyze(_path: &[u8], _language: Option<&str>, _content: &[u8]) -> Option<CodeFacts> {
    None
}
