//! The one error type of the measuring half: a stable code, a message naming the failing
//! input or field, and an optional hint.

/// A failure with a stable machine-readable code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// Stable code, e.g. `bad_reference`, `incompatible_reports`, `evidence_mismatch`.
    pub code: &'static str,
    /// What failed, with which input or field.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl EvalError {
    /// Builds an error without a hint.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        EvalError {
            code,
            message: message.into(),
            hint: None,
        }
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Wraps an I/O failure on `path`.
    pub fn io(path: &std::path::Path, e: std::io::Error) -> Self {
        EvalError::new("io_error", format!("{}: {e}", path.display()))
    }

    /// An invalid command-line value.
    pub fn arg(message: impl Into<String>) -> Self {
        EvalError::new("invalid_argument", message)
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for EvalError {}

impl From<repocue::Error> for EvalError {
    fn from(e: repocue::Error) -> Self {
        EvalError {
            code: e.code(),
            message: e.to_string(),
            hint: e.hint(),
        }
    }
}

impl From<rusqlite::Error> for EvalError {
    fn from(e: rusqlite::Error) -> Self {
        EvalError::new("database_error", e.to_string())
    }
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, EvalError>;
