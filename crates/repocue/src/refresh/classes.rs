//! Stage 2b of a refresh: every planned path's class by its name, the configuration and its
//! Git attributes (one `git check-attr` for all of them), before anything is read. When the
//! rules changed, reused rows are re-classified too; a row whose new class needs its content
//! (a secret check, an analysis it never had) is moved to the scan.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::classify::{self, Attributes};
use crate::config::AnalysisRules;
use crate::error::Result;
use crate::model::{FileClass, FileState, FileType};
use crate::repo::Repo;
use crate::scan::ScanItem;

use super::basis::Start;
use super::plan::Plan;

/// Decides the classes of the plan's paths: sets each scanned item's class and content check,
/// and (when `start.reclassify`) re-classifies the reused rows.
pub(crate) fn assign(
    repo: &Repo,
    start: &Start,
    plan: &mut Plan,
    rules: &AnalysisRules,
) -> Result<()> {
    // Unless the rules or the attributes changed, a path the previous snapshot holds keeps the
    // class its name gave it there (the same rules and attributes give the same answer): only
    // new paths, and those a secret's content may have decided, cost the check-attr process.
    let known: HashMap<&[u8], FileClass> = match start.reclassify || start.full() {
        true => HashMap::new(),
        false => plan
            .to_scan
            .iter()
            .filter_map(|item| {
                let i = start
                    .prev_files
                    .binary_search_by(|f| f.path.as_slice().cmp(&item.path))
                    .ok()?;
                let class = start.prev_files[i].class;
                (class != FileClass::Secret).then_some((item.path.as_slice(), class))
            })
            .collect(),
    };
    let mut ask: Vec<&[u8]> = plan
        .to_scan
        .iter()
        .map(|i| i.path.as_slice())
        .filter(|p| !known.contains_key(p))
        .collect();
    if start.reclassify {
        ask.extend(plan.reused.iter().map(|f| f.path.as_slice()));
    }
    // A baseline's capture read the attributes of every listed path already (keeping those
    // with one set), and a baseline asks for listed paths only.
    let attributes = match &start.basis.attributes {
        Some(read) => Cow::Borrowed(read),
        None => Cow::Owned(repo.git.linguist_attributes(&ask)?),
    };
    let known: HashMap<Vec<u8>, FileClass> =
        known.into_iter().map(|(p, c)| (p.to_vec(), c)).collect();
    let content_checked_before = start.previous.as_ref().is_some_and(|p| p.secret_content);
    apply(
        plan,
        rules,
        &attributes,
        start.reclassify,
        content_checked_before,
    );
    for item in &mut plan.to_scan {
        if let Some(class) = known.get(&item.path) {
            item.class = *class;
        }
    }
    Ok(())
}

/// The pure part of [`assign`].
pub(crate) fn apply(
    plan: &mut Plan,
    rules: &AnalysisRules,
    attributes: &HashMap<Vec<u8>, Attributes>,
    reclassify: bool,
    content_checked_before: bool,
) {
    let class_of = |path: &[u8]| {
        let attrs = attributes.get(path).copied().unwrap_or_default();
        classify::path_class(path, rules, attrs)
    };
    for item in &mut plan.to_scan {
        item.class = class_of(&item.path);
        item.check_content = rules.secret_content;
    }
    if !reclassify {
        return;
    }
    let mut kept = Vec::with_capacity(plan.reused.len());
    for mut row in std::mem::take(&mut plan.reused) {
        let class = class_of(&row.path);
        if needs_content(&row, class, rules.secret_content, content_checked_before) {
            plan.to_scan.push(rescan(&row, class, rules.secret_content));
        } else {
            row.class = class;
            // The document flag follows from the path and the language the row has.
            row.is_document = row.file_type == FileType::Text
                && classify::is_document(&row.path, row.language.as_deref());
            kept.push(row);
        }
    }
    plan.reused = kept;
}

/// Tells whether a row's new class can only be decided, or used, by reading the file again:
/// its secret status may have come from its content (or is now to be checked for the first
/// time), or it becomes analysed and may never have been.
fn needs_content(row: &FileState, class: FileClass, check: bool, checked_before: bool) -> bool {
    let regular = matches!(row.file_type, FileType::Text | FileType::Binary);
    if class == FileClass::Secret || !regular {
        return false;
    }
    let content_decides = check && (row.class == FileClass::Secret || !checked_before);
    // A name that now says a language (an older release knew no `.rdoc`): the row's language,
    // document flag and facts come from reading it.
    let named_now = row.file_type == FileType::Text
        && row.language.is_none()
        && classify::language(&row.path, b"").is_some();
    content_decides || (class.analysed() && !row.class.analysed()) || named_now
}

/// A scan item for a reused row: the same index entry and working state, read again.
fn rescan(row: &FileState, class: FileClass, check_content: bool) -> ScanItem {
    ScanItem {
        path: row.path.clone(),
        index_mode: row.index_mode,
        index_oid: row.index_oid.clone(),
        working_state: row.working_state,
        assume_unchanged: row.assume_unchanged,
        skip_worktree: row.skip_worktree,
        class,
        check_content,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Globs;

    fn row(path: &str, class: FileClass) -> FileState {
        FileState {
            class,
            // As a scan records it: the language its name says.
            language: classify::language(path.as_bytes(), b"").map(str::to_owned),
            ..crate::model::sample_file(path, "d")
        }
    }

    fn rules(exclude: &[&str], check: bool) -> AnalysisRules {
        AnalysisRules {
            exclude: Globs::new(exclude).unwrap(),
            secret_content: check,
            ..Default::default()
        }
    }

    fn paths(items: &[ScanItem]) -> Vec<&str> {
        items
            .iter()
            .map(|i| std::str::from_utf8(&i.path).unwrap())
            .collect()
    }

    #[test]
    fn new_rules_reclassify_reused_rows_and_read_only_what_needs_content() {
        let mut plan = Plan {
            reused: vec![
                row("a.rs", FileClass::Source),
                row("gen/b.rs", FileClass::Source),
                row("old/c.rs", FileClass::Excluded),
                row("s.py", FileClass::Secret),
                row("vendor/v.c", FileClass::Vendored),
            ],
            ..Default::default()
        };
        let attrs: HashMap<Vec<u8>, Attributes> = [(
            b"vendor/v.c".to_vec(),
            Attributes {
                vendored: Some(false),
                generated: None,
            },
        )]
        .into();
        apply(&mut plan, &rules(&["gen/**"], true), &attrs, true, true);
        let kept: Vec<(&[u8], FileClass)> = plan
            .reused
            .iter()
            .map(|f| (f.path.as_slice(), f.class))
            .collect();
        assert_eq!(
            kept,
            [
                (b"a.rs".as_slice(), FileClass::Source),
                (b"gen/b.rs".as_slice(), FileClass::Excluded),
            ]
        );
        // Newly included files need an analysis; a secret may have been one by content.
        assert_eq!(paths(&plan.to_scan), ["old/c.rs", "s.py", "vendor/v.c"]);
        assert!(plan.to_scan.iter().all(|i| i.check_content));
        assert_eq!(plan.to_scan[2].class, FileClass::Source);
    }

    #[test]
    fn turning_the_content_check_on_reads_every_regular_file_once() {
        let mut plan = Plan {
            reused: vec![
                row("a.rs", FileClass::Source),
                row("b.rs", FileClass::Source),
            ],
            ..Default::default()
        };
        apply(&mut plan, &rules(&[], true), &HashMap::new(), true, false);
        assert_eq!(paths(&plan.to_scan), ["a.rs", "b.rs"]);
        // Turned off: a content secret becomes its path's class, read only to be analysed.
        let mut plan = Plan {
            reused: vec![
                row("old/s.py", FileClass::Secret),
                row("s.py", FileClass::Secret),
            ],
            ..Default::default()
        };
        apply(
            &mut plan,
            &rules(&["old"], false),
            &HashMap::new(),
            true,
            true,
        );
        assert_eq!(paths(&plan.to_scan), ["s.py"]);
        assert_eq!(plan.reused[0].class, FileClass::Excluded);
    }

    #[test]
    fn without_new_rules_only_scanned_items_are_classified() {
        let mut plan = Plan {
            reused: vec![row("x/secret.pem", FileClass::Source)],
            to_scan: vec![rescan(
                &row("k.pem", FileClass::Source),
                FileClass::Source,
                false,
            )],
            ..Default::default()
        };
        apply(&mut plan, &rules(&[], true), &HashMap::new(), false, true);
        assert_eq!(plan.to_scan[0].class, FileClass::Secret);
        assert!(plan.to_scan[0].check_content);
        assert_eq!(plan.reused[0].class, FileClass::Source, "left alone");
    }
}
