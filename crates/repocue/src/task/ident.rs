//! Identities shared by the task stages: the contract version, digest strings and source
//! ids. A leaf: it imports no other task module.

use sha2::{Digest, Sha256};

use crate::api::task::Lines;

/// Version of the declaration contract.
pub const DECLARATION_SCHEMA_VERSION: &str = "repocue/task-context-1";

/// Prefix of every digest string in declarations and task cues.
pub const DIGEST_PREFIX: &str = "sha256:";

/// Formats a SHA-256 hash as a `sha256:<hex>` digest string.
pub fn digest_string(hash: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(DIGEST_PREFIX.len() + hash.len() * 2);
    s.push_str(DIGEST_PREFIX);
    for b in hash {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Returns the `sha256:<hex>` digest of `bytes`.
pub fn digest_of(bytes: &[u8]) -> String {
    digest_string(&Sha256::digest(bytes))
}

/// Returns the source id of a reference: a hash of path, full-file digest and range, so equal
/// references share one source record.
pub fn source_id(path: &str, content_digest: &str, lines: Option<Lines>) -> String {
    let mut h = Sha256::new();
    h.update(path.as_bytes());
    h.update([0]);
    h.update(content_digest.as_bytes());
    h.update([0]);
    match lines {
        None => h.update(b"all"),
        Some(l) => h.update(format!("{}-{}", l.start, l.end).as_bytes()),
    }
    let full = digest_string(&h.finalize());
    format!(
        "src-{}",
        &full[DIGEST_PREFIX.len()..DIGEST_PREFIX.len() + 16]
    )
}
