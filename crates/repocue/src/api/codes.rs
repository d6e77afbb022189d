//! Closed vocabularies of the public contract. Each enum serialises to the same string it
//! always had (the JSON is unchanged); the generated schemas list the values.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares a public string enum: serde names, `as_str`, `Display`, `FromStr`, `ALL`, and a
/// JSON Schema that lists the values (`"enum": [...]`).
macro_rules! string_enum {
    ($desc:literal $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        #[doc = $desc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Returns the public name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "description": $desc,
                    "type": "string",
                    "enum": [$($text),+]
                })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Compares with the public name, so `code == "omitted"` reads as the JSON does.
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    other => Err(format!(concat!("not a ", stringify!($name), ": {:?}"), other)),
                }
            }
        }
    };
}

string_enum! {
    "A delta operation: what happened to one entity between two snapshots."
    DeltaOp {
        /// A tracked file appeared.
        FileAdded = "file.added",
        /// A tracked file is gone (from the index, or deleted in the working tree).
        FileDeleted = "file.deleted",
        /// A file added where another was deleted, with that one's content or with every
        /// symbol that moved out of it (`git mv`): a delta cue's `file.added` and
        /// `file.deleted` folded into one entry with `from`. Never a stored operation.
        FileRenamed = "file.renamed",
        /// A file deleted in the working tree came back.
        FileRestored = "file.restored",
        /// A file's content digest changed.
        FileContentChanged = "file.content_changed",
        /// A file's mode or type changed, not its content.
        FileMetadataChanged = "file.metadata_changed",
        /// A file's working state or index flags changed, not its content.
        FileStateChanged = "file.state_changed",
        /// The checked-out branch changed.
        BranchChanged = "repository.branch_changed",
        /// HEAD moved.
        HeadChanged = "repository.head_changed",
        /// The dirty flag or the untracked paths changed.
        WorkingTreeChanged = "repository.working_tree_changed",
        /// A symbol was added.
        SymbolAdded = "symbol.added",
        /// A symbol was removed.
        SymbolRemoved = "symbol.removed",
        /// A symbol's declaration changed.
        SymbolSignatureChanged = "symbol.signature_changed",
        /// A symbol left one file and appeared, with the same declaration, in another.
        SymbolMoved = "symbol.moved",
        /// A file gained an import.
        ImportAdded = "import.added",
        /// A file lost an import.
        ImportRemoved = "import.removed",
        /// A document gained a section (a heading).
        SectionAdded = "section.added",
        /// A document lost a section.
        SectionRemoved = "section.removed",
    }
}

impl DeltaOp {
    /// Display rank: repository operations, then content changes, additions, deletions,
    /// restorations and symbols, then state and metadata changes, then imports.
    pub fn rank(self) -> u8 {
        use DeltaOp::*;
        match self {
            BranchChanged | HeadChanged => 0,
            FileContentChanged | FileAdded | FileDeleted | FileRenamed => 1,
            FileRestored => 2,
            SymbolAdded | SymbolRemoved | SymbolSignatureChanged | SymbolMoved => 2,
            SectionAdded | SectionRemoved => 2,
            WorkingTreeChanged => 3,
            FileStateChanged => 4,
            FileMetadataChanged => 5,
            ImportAdded | ImportRemoved => 6,
        }
    }

    /// Whether it is a `repository.*` operation.
    pub fn is_repository(self) -> bool {
        matches!(
            self,
            DeltaOp::BranchChanged | DeltaOp::HeadChanged | DeltaOp::WorkingTreeChanged
        )
    }
}

string_enum! {
    "A warning code: something uncertain or worth knowing. (Items left out for the budget are counted in the envelope's `omitted`.)"
    WarningCode {
        /// No cache existed: a baseline was recorded before answering.
        Initialized = "initialized",
        /// The cache was stale: it was refreshed before answering.
        Refreshed = "refreshed",
        /// The live repository differs from the snapshot served, or its analysis was
        /// deferred (the detail says which); `count` is the paths that changed.
        RefreshNeeded = "refresh_needed",
        /// Files changed while being read.
        ChangedDuringScan = "changed_during_scan",
        /// Index entries marked assume-unchanged.
        AssumeUnchanged = "assume_unchanged",
        /// Index entries marked skip-worktree.
        SkipWorktree = "skip_worktree",
        /// Paths that are not UTF-8 are shown with `\xNN` escapes.
        NonUtf8Path = "non_utf8_path",
        /// Another process published a snapshot observed after this operation was asked for:
        /// that snapshot was adopted instead of publishing.
        Adopted = "adopted",
        /// A refresh before answering lost the race to other writers: the newest snapshot is
        /// served with its live freshness.
        RefreshLostRace = "refresh_lost_race",
        /// Tracked files that could not be read or analyzed in the last scan (`count` says
        /// how many); the next refresh tries them again.
        FileFaults = "file_faults",
    }
}

string_enum! {
    "Why a snapshot may not match the repository exactly (its freshness is then `possibly-stale`)."
    Caveat {
        /// Index entries marked assume-unchanged: Git may hide their changes.
        AssumeUnchanged = "assume_unchanged",
        /// Index entries marked skip-worktree (sparse checkout).
        SkipWorktree = "skip_worktree",
        /// Files changed while the scan read them.
        ChangedDuringScan = "changed_during_scan",
        /// Tracked files could not be read or analyzed (see the snapshot's faults): their
        /// last known state is served and the next refresh tries them again.
        FileFaults = "file_faults",
    }
}

string_enum! {
    "Why one tracked file could not be read or analyzed in a scan (a per-file fault)."
    FaultKind {
        /// Reading failed (permission denied, I/O error): the previous state is kept, or the
        /// file is `unreadable` when there is none.
        Unreadable = "unreadable",
        /// The file vanished between Git's status and the read: the previous state is kept.
        Vanished = "vanished",
        /// Parsing took longer than its time limit: the file's state is current, its
        /// structure is missing until a refresh parses it in time.
        TimedOut = "timed_out",
        /// Its analysis did not fit the time a read may spend on it (a first cue on a large
        /// repository): the file's state is current, its structure comes with the next
        /// refresh, which the next read runs.
        Deferred = "deferred",
    }
}

impl Caveat {
    /// The warning a snapshot with this caveat carries.
    pub fn warning_code(self) -> WarningCode {
        match self {
            Caveat::AssumeUnchanged => WarningCode::AssumeUnchanged,
            Caveat::SkipWorktree => WarningCode::SkipWorktree,
            Caveat::ChangedDuringScan => WarningCode::ChangedDuringScan,
            Caveat::FileFaults => WarningCode::FileFaults,
        }
    }
}

string_enum! {
    "A state-changing operation."
    OperationKind {
        /// The first full scan of a repository.
        Baseline = "baseline",
        /// An incremental refresh.
        Refresh = "refresh",
        /// A full scan that starts a new epoch.
        Rebaseline = "rebaseline",
    }
}

string_enum! {
    "What a search hit is."
    SearchKind {
        /// A file path.
        Path = "path",
        /// A symbol.
        Symbol = "symbol",
        /// A document heading.
        Doc = "doc",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_display_and_from_str() {
        for op in DeltaOp::ALL {
            let json = serde_json::to_string(op).unwrap();
            assert_eq!(json, format!("\"{op}\""));
            assert_eq!(op.as_str().parse::<DeltaOp>().unwrap(), *op);
        }
        for c in WarningCode::ALL {
            assert_eq!(serde_json::to_string(c).unwrap(), format!("\"{c}\""));
            assert_eq!(c.as_str().parse::<WarningCode>().unwrap(), *c);
        }
        for c in Caveat::ALL {
            assert_eq!(c.warning_code().as_str(), c.as_str());
        }
        assert!("file.moved".parse::<DeltaOp>().is_err());
        assert_eq!(
            serde_json::from_str::<OperationKind>("\"rebaseline\"").unwrap(),
            OperationKind::Rebaseline
        );
        assert_eq!(SearchKind::Doc.to_string(), "doc");
    }

    #[test]
    fn ranks_put_repository_then_content_first() {
        assert_eq!(DeltaOp::HeadChanged.rank(), 0);
        assert!(DeltaOp::FileContentChanged.rank() < DeltaOp::FileStateChanged.rank());
        assert_eq!(DeltaOp::SymbolMoved.rank(), 2);
        assert_eq!(DeltaOp::ImportAdded.rank(), 6);
        assert!(DeltaOp::WorkingTreeChanged.is_repository());
        assert!(!DeltaOp::FileAdded.is_repository());
    }
}
