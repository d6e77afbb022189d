//! Public ids: sequenced ids (`snapshot-000042`) and entity ids (`symbol:src/lib.rs:Parser.parse`).
//! Formatting and parsing live here and nowhere else.

use std::fmt;
use std::str::FromStr;

/// Declares a sequenced id newtype: `<prefix>-<at least 6 digits>`.
macro_rules! seq_id {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub i64);

        impl $name {
            /// The id's prefix.
            pub const PREFIX: &'static str = $prefix;
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}-{:06}", $prefix, self.0)
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                parse_seq($prefix, s)
                    .map($name)
                    .ok_or_else(|| format!(concat!("not a ", $prefix, " id: {:?}"), s))
            }
        }
    };
}

seq_id!(
    /// A snapshot: one published state of the repository.
    SnapshotId,
    "snapshot"
);
seq_id!(
    /// An epoch: the snapshots since one baseline.
    EpochId,
    "epoch"
);
seq_id!(
    /// A checkpoint: a pinned snapshot.
    CheckpointId,
    "checkpoint"
);
seq_id!(
    /// A delta: the link from a snapshot to its parent.
    DeltaId,
    "delta"
);

fn parse_seq(prefix: &str, id: &str) -> Option<i64> {
    let digits = id.strip_prefix(prefix)?.strip_prefix('-')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// What an entity id names. Paths are the display form (`\xNN` escapes for non-UTF-8 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EntityId {
    /// The repository itself (`repository`).
    Repository,
    /// A tracked file (`file:<path>`).
    File {
        /// Repository path.
        path: String,
    },
    /// A symbol (`symbol:<path>:<qualified.name>`).
    Symbol {
        /// Repository path of the file declaring it.
        path: String,
        /// Qualified name (`Parser.parse`).
        name: String,
    },
    /// A document or one of its headings (`doc:<path>` or `doc:<path>#<slug>`).
    Doc {
        /// Repository path of the document.
        path: String,
        /// Heading slug, for a section.
        anchor: Option<String>,
    },
}

impl EntityId {
    /// A file entity.
    pub fn file(path: impl Into<String>) -> Self {
        EntityId::File { path: path.into() }
    }

    /// A symbol entity.
    pub fn symbol(path: impl Into<String>, name: impl Into<String>) -> Self {
        EntityId::Symbol {
            path: path.into(),
            name: name.into(),
        }
    }

    /// A document entity, or one of its sections with `anchor`.
    pub fn doc(path: impl Into<String>, anchor: Option<String>) -> Self {
        EntityId::Doc {
            path: path.into(),
            anchor,
        }
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntityId::Repository => f.write_str("repository"),
            EntityId::File { path } => write!(f, "file:{path}"),
            EntityId::Symbol { path, name } => write!(f, "symbol:{path}:{name}"),
            EntityId::Doc { path, anchor: None } => write!(f, "doc:{path}"),
            EntityId::Doc {
                path,
                anchor: Some(a),
            } => write!(f, "doc:{path}#{a}"),
        }
    }
}

impl FromStr for EntityId {
    type Err = String;

    /// Parses an id. Paths may contain `:`; a qualified name holds none but in `::` (Rust's
    /// `impl fmt::Display for Kind`, a Bash function `my::setup`), so a symbol id splits at
    /// its last `:` that is no half of a `::`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!("not an entity id: {s:?} (expected symbol:<path>:<name>, file:<path> or doc:<path>)")
        };
        if s == "repository" {
            return Ok(EntityId::Repository);
        }
        if let Some(rest) = s.strip_prefix("symbol:") {
            let (path, name) = split_symbol(rest).ok_or_else(bad)?;
            if path.is_empty() || name.is_empty() {
                return Err(bad());
            }
            return Ok(EntityId::symbol(path, name));
        }
        if let Some(path) = s.strip_prefix("file:") {
            return (!path.is_empty())
                .then(|| EntityId::file(path))
                .ok_or_else(bad);
        }
        if let Some(rest) = s.strip_prefix("doc:") {
            let (path, anchor) = match rest.split_once('#') {
                Some((p, a)) => (p, Some(a.to_owned())),
                None => (rest, None),
            };
            return (!path.is_empty())
                .then(|| EntityId::doc(path, anchor))
                .ok_or_else(bad);
        }
        Err(bad())
    }
}

/// A symbol id's path and name ([`EntityId::from_str`]): split at the last `:` that is no
/// half of a `::`.
pub(crate) fn split_symbol(rest: &str) -> Option<(&str, &str)> {
    let b = rest.as_bytes();
    let at = (0..b.len())
        .rev()
        .find(|&i| b[i] == b':' && (i == 0 || b[i - 1] != b':') && b.get(i + 1) != Some(&b':'))?;
    Some((&rest[..at], &rest[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequenced_ids_format_and_parse() {
        assert_eq!(SnapshotId(42).to_string(), "snapshot-000042");
        assert_eq!(EpochId(1234567).to_string(), "epoch-1234567");
        assert_eq!("snapshot-000042".parse::<SnapshotId>(), Ok(SnapshotId(42)));
        assert!("snapshot-".parse::<SnapshotId>().is_err());
        assert!("snapshot-12a".parse::<SnapshotId>().is_err());
        assert!("epoch-000001".parse::<SnapshotId>().is_err());
        assert_eq!(
            "checkpoint-000003".parse::<CheckpointId>(),
            Ok(CheckpointId(3))
        );
        assert_eq!(DeltaId(7).to_string(), "delta-000007");
    }

    #[test]
    fn entity_ids_round_trip() {
        for text in [
            "repository",
            "file:src/lib.rs",
            "symbol:src/lib.rs:Parser.parse",
            "symbol:a:b/c.rs:Outer.inner",
            "doc:README.md",
            "doc:docs/guide.md#getting-started",
        ] {
            let id: EntityId = text.parse().unwrap();
            assert_eq!(id.to_string(), text);
        }
        assert_eq!(
            "symbol:a:b/c.rs:Outer.inner".parse::<EntityId>().unwrap(),
            EntityId::symbol("a:b/c.rs", "Outer.inner")
        );
        // A name with `::` (a Rust impl, a Bash function) is read whole.
        for (text, path, name) in [
            (
                "symbol:src/lib.rs:impl fmt::Display for Kind.fmt",
                "src/lib.rs",
                "impl fmt::Display for Kind.fmt",
            ),
            ("symbol:a:b.sh:my::setup", "a:b.sh", "my::setup"),
            (
                "symbol:src/e.rs:impl From<std::io::Error> for Kind",
                "src/e.rs",
                "impl From<std::io::Error> for Kind",
            ),
        ] {
            let id: EntityId = text.parse().unwrap();
            assert_eq!(id, EntityId::symbol(path, name), "{text}");
            assert_eq!(id.to_string(), text);
        }
        assert!("symbol:src/lib.rs".parse::<EntityId>().is_err());
        assert!("symbol:a::b".parse::<EntityId>().is_err());
        assert!("file:".parse::<EntityId>().is_err());
        assert!("thing:x".parse::<EntityId>().is_err());
    }
}
