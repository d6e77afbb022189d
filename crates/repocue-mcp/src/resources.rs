//! MCP resources: `repocue://<repo-id>/...` URIs, their parsing, and reading one as a cue.
//!
//! | URI | answer |
//! |---|---|
//! | `repocue://<repo>/overview/current` | the overview cue |
//! | `repocue://<repo>/snapshot/<snapshot>` | the manifest cue, if `<snapshot>` is current |
//! | `repocue://<repo>/delta/<from>/<to>` | the delta cue since `<from>`, if `<to>` is current |
//! | `repocue://<repo>/entity/<id>` | the entity cue of `<id>` |
//! | `repocue://<repo>/document/<path>` | the document cue of `<path>` |
//!
//! Segments are percent-decoded, so `doc:README.md%23install` names `doc:README.md#install`
//! (a raw `#` is accepted as part of an entity id too). Only the current state is served: a
//! snapshot or delta that ends anywhere else is "not found", never an answer about an older
//! state presented as current.

use std::fmt;

use repocue::api::ErrorOutput;
use repocue::{CueRequest, View};
use repocue::{Options, Service};

use crate::tools::error_output;

/// The URI scheme of every RepoCue resource.
pub const SCHEME: &str = "repocue://";

/// A parsed resource URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceUri {
    /// The repository id the URI names (`repo-<24 hex>`).
    pub repo_id: String,
    /// What it asks for.
    pub target: Target,
}

/// What a resource URI asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `overview/current`.
    Overview,
    /// `snapshot/<id>`: the manifest of that snapshot, which must be the current one.
    Snapshot(String),
    /// `delta/<from>/<to>`: what changed from `from` to `to`, which must be current.
    Delta {
        /// The earlier snapshot.
        from: String,
        /// The later snapshot.
        to: String,
    },
    /// `entity/<id>`.
    Entity(String),
    /// `document/<path>`.
    Document(String),
}

/// Why a resource cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceError {
    /// The URI is not a well-formed RepoCue resource URI (maps to invalid params).
    Invalid(String),
    /// The URI is well-formed but names nothing this server serves (maps to resource not
    /// found): another repository, an unknown kind, a snapshot that is not current.
    NotFound(String),
    /// The library failed; its error object says how.
    Library(ErrorOutput),
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceError::Invalid(m) | ResourceError::NotFound(m) => f.write_str(m),
            ResourceError::Library(e) => f.write_str(&e.error.message),
        }
    }
}

/// A resource template: a URI pattern (RFC 6570) with a name and what it returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The URI template for the given repository.
    pub uri_template: String,
    /// Short name.
    pub name: &'static str,
    /// What reading it returns.
    pub description: &'static str,
}

/// Returns the URI of the current overview of a repository.
pub fn overview_uri(repo_id: &str) -> String {
    format!("{SCHEME}{repo_id}/overview/current")
}

/// Returns the resource templates of a repository.
pub fn templates(repo_id: &str) -> Vec<Template> {
    let t = |suffix: &str, name, description| Template {
        uri_template: format!("{SCHEME}{repo_id}/{suffix}"),
        name,
        description,
    };
    vec![
        t(
            "snapshot/{snapshot}",
            "snapshot",
            "Manifest cue of a snapshot (e.g. snapshot-000004); only the current snapshot is \
             served, any other is not found.",
        ),
        t(
            "delta/{from}/{to}",
            "delta",
            "Delta cue of what changed from snapshot {from} to snapshot {to}; {to} must be the \
             current snapshot.",
        ),
        t(
            "entity/{+id}",
            "entity",
            "Entity cue of one file, symbol or document (ids like file:src/lib.rs, \
             symbol:src/lib.rs:Parser.parse, doc:README.md%23install).",
        ),
        t(
            "document/{+path}",
            "document",
            "Document cue of one documentation file: outline, links, code references, \
             staleness.",
        ),
    ]
}

/// Parses a resource URI. Fails with [`ResourceError::Invalid`] when it is malformed and
/// [`ResourceError::NotFound`] when it is well-formed but of an unknown kind.
pub fn parse_uri(uri: &str) -> Result<ResourceUri, ResourceError> {
    let invalid =
        |why: &str| ResourceError::Invalid(format!("invalid resource URI {uri:?}: {why}"));
    let rest = strip_prefix_ignore_case(uri, SCHEME)
        .ok_or_else(|| invalid("expected repocue://<repo-id>/<kind>/..."))?;
    if rest.contains('?') {
        return Err(invalid("query parameters are not supported"));
    }
    let (repo_id, path) = rest
        .split_once('/')
        .ok_or_else(|| invalid("no resource path"))?;
    if !is_repo_id(repo_id) {
        return Err(invalid(
            "the host must be a repository id like repo-<24 hex digits>",
        ));
    }
    let (kind, tail) = path.split_once('/').unwrap_or((path, ""));
    let segments = |n: usize| -> Result<Vec<String>, ResourceError> {
        let parts: Vec<&str> = tail.split('/').collect();
        if parts.len() != n || parts.iter().any(|p| p.is_empty()) {
            return Err(invalid(&format!("{kind} takes {n} path segment(s)")));
        }
        parts
            .into_iter()
            .map(|p| decode(p).map_err(|e| invalid(&e)))
            .collect()
    };
    let whole = || -> Result<String, ResourceError> {
        let s = decode(tail).map_err(|e| invalid(&e))?;
        if s.is_empty() {
            return Err(invalid(&format!("{kind} needs a value after {kind}/")));
        }
        Ok(s)
    };
    let target = match kind {
        "overview" => match tail {
            "current" => Target::Overview,
            _ => {
                return Err(ResourceError::NotFound(format!(
                    "resource not found: {uri} (only overview/current exists)"
                )))
            }
        },
        "snapshot" => {
            let id = segments(1)?.remove(0);
            check_snapshot_id(&id).map_err(|e| invalid(&e))?;
            Target::Snapshot(id)
        }
        "delta" => {
            let mut ids = segments(2)?;
            let to = ids.pop().expect("two segments");
            let from = ids.pop().expect("two segments");
            check_snapshot_id(&from).map_err(|e| invalid(&e))?;
            check_snapshot_id(&to).map_err(|e| invalid(&e))?;
            Target::Delta { from, to }
        }
        "entity" => Target::Entity(whole()?),
        "document" => Target::Document(whole()?),
        _ => {
            return Err(ResourceError::NotFound(format!(
                "resource not found: {uri} (kinds: overview, snapshot, delta, entity, document)"
            )))
        }
    };
    Ok(ResourceUri {
        repo_id: repo_id.to_owned(),
        target,
    })
}

/// Reads a resource: parses the URI, checks that it names the served repository, and
/// returns the cue JSON. The cue is brought up to date first, as `context_get` does.
pub fn read(opts: &Options, uri: &str) -> Result<String, ResourceError> {
    let parsed = parse_uri(uri)?;
    let service = Service::open(opts).map_err(|e| ResourceError::Library(error_output(e)))?;
    let result = read_with(&service, uri, &parsed);
    for notice in service.take_notices() {
        eprintln!("repocue: warning: {notice}");
    }
    result
}

/// Returns the id of the repository the options resolve to.
pub fn served_repo_id(opts: &Options) -> Result<String, ErrorOutput> {
    crate::tools::with_service(opts, |s| Ok(s.repo_id().to_owned()))
}

fn read_with(service: &Service, uri: &str, parsed: &ResourceUri) -> Result<String, ResourceError> {
    if parsed.repo_id != service.repo_id() {
        return Err(ResourceError::NotFound(format!(
            "resource not found: {uri} names repository {}, this server serves {}",
            parsed.repo_id,
            service.repo_id()
        )));
    }
    let request = match &parsed.target {
        Target::Overview => CueRequest::new(View::Overview),
        Target::Snapshot(_) => CueRequest::new(View::Manifest),
        Target::Delta { from, .. } => CueRequest {
            since: Some(from.clone()),
            ..CueRequest::new(View::Delta)
        },
        Target::Entity(id) => CueRequest {
            id: Some(id.clone()),
            ..CueRequest::new(View::Entity)
        },
        Target::Document(path) => CueRequest {
            path: Some(path.clone()),
            ..CueRequest::new(View::Document)
        },
    };
    let cue = crate::tools::with_default_budget(service, request, None)
        .and_then(|r| service.cue(&r))
        .map_err(|e| ResourceError::Library(error_output(e)))?;
    let current = cue.value["snapshot"].as_str().unwrap_or_default();
    match &parsed.target {
        Target::Snapshot(id) if id != current => Err(ResourceError::NotFound(format!(
            "resource not found: {id} is not the current snapshot ({current}); only the \
             current snapshot is served: {SCHEME}{}/snapshot/{current}",
            parsed.repo_id
        ))),
        Target::Delta { from, to } if to != current => Err(ResourceError::NotFound(format!(
            "resource not found: deltas are served up to the current snapshot only; {to} is \
             not current, read {SCHEME}{}/delta/{from}/{current}",
            parsed.repo_id
        ))),
        _ => Ok(cue.json),
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

fn is_repo_id(s: &str) -> bool {
    s.strip_prefix("repo-").is_some_and(|hex| {
        hex.len() == 24
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

fn check_snapshot_id(id: &str) -> Result<(), String> {
    match id.parse::<repocue::api::SnapshotId>().ok() {
        Some(_) => Ok(()),
        None => Err(format!("{id:?} is not a snapshot id like snapshot-000001")),
    }
}

/// Percent-decodes one URI component; fails on a bad escape (a `%` not followed by two hex
/// digits) or a result that is not UTF-8.
fn decode(s: &str) -> Result<String, String> {
    // `percent_decode_str` passes a bad escape through unchanged; a URI holding one is
    // malformed, so it is refused before decoding.
    let bytes = s.as_bytes();
    let bad_escape = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if bad_escape {
        return Err(format!("bad percent escape in {s:?}"));
    }
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .map_err(|_| format!("{s:?} does not decode to UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPO: &str = "repo-0123456789abcdef01234567";

    fn parse(suffix: &str) -> Result<Target, ResourceError> {
        parse_uri(&format!("repocue://{REPO}/{suffix}")).map(|u| u.target)
    }

    #[test]
    fn parses_every_kind() {
        assert_eq!(parse("overview/current"), Ok(Target::Overview));
        assert_eq!(
            parse("snapshot/snapshot-000004"),
            Ok(Target::Snapshot("snapshot-000004".into()))
        );
        assert_eq!(
            parse("delta/snapshot-000001/snapshot-000004"),
            Ok(Target::Delta {
                from: "snapshot-000001".into(),
                to: "snapshot-000004".into()
            })
        );
        assert_eq!(
            parse("entity/symbol:src/lib.rs:Parser.parse"),
            Ok(Target::Entity("symbol:src/lib.rs:Parser.parse".into()))
        );
        assert_eq!(
            parse("entity/doc:README.md%23install"),
            Ok(Target::Entity("doc:README.md#install".into()))
        );
        assert_eq!(
            parse("document/docs/my%20guide.md"),
            Ok(Target::Document("docs/my guide.md".into()))
        );
        let u = parse_uri(&format!("REPOCUE://{REPO}/overview/current")).unwrap();
        assert_eq!(u.repo_id, REPO);
    }

    #[test]
    fn rejects_malformed_uris() {
        for bad in [
            "http://x/overview/current".to_owned(),
            "repocue://".to_owned(),
            format!("repocue://{REPO}"),
            "repocue://repo-123/overview/current".to_owned(),
            "repocue://repo-0123456789ABCDEF01234567/overview/current".to_owned(),
            format!("repocue://{REPO}/snapshot/"),
            format!("repocue://{REPO}/snapshot/latest"),
            format!("repocue://{REPO}/snapshot/snapshot-000001/extra"),
            format!("repocue://{REPO}/delta/snapshot-000001"),
            format!("repocue://{REPO}/delta/snapshot-000001/"),
            format!("repocue://{REPO}/delta/s1/s2"),
            format!("repocue://{REPO}/entity/"),
            format!("repocue://{REPO}/entity"),
            format!("repocue://{REPO}/document/%zz"),
            format!("repocue://{REPO}/document/%ff"),
            format!("repocue://{REPO}/overview/current?max_tokens=9"),
        ] {
            assert!(
                matches!(parse_uri(&bad), Err(ResourceError::Invalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn unknown_kinds_are_not_found() {
        for bad in ["overview/old", "checkpoint/checkpoint-000001", "", "status"] {
            assert!(
                matches!(parse(bad), Err(ResourceError::NotFound(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn templates_name_the_repository() {
        let t = templates(REPO);
        assert_eq!(t.len(), 4);
        assert!(t
            .iter()
            .all(|t| t.uri_template.starts_with(&format!("repocue://{REPO}/"))));
        assert_eq!(
            overview_uri(REPO),
            format!("repocue://{REPO}/overview/current")
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
    use proptest::prelude::*;

    proptest! {
        /// Decoding undoes encoding, for any text.
        #[test]
        fn decoding_undoes_encoding(s in any::<String>()) {
            let encoded = utf8_percent_encode(&s, NON_ALPHANUMERIC).to_string();
            prop_assert_eq!(decode(&encoded), Ok(s));
        }

        /// Text without `%` decodes to itself.
        #[test]
        fn plain_text_is_unchanged(s in "[^%]*") {
            prop_assert_eq!(decode(&s), Ok(s.clone()));
        }

        /// Any input either decodes or is refused with a message; never a panic. A URI
        /// built from any entity id parses back to that id.
        #[test]
        fn any_input_is_handled(s in any::<String>()) {
            if let Err(message) = decode(&s) {
                prop_assert!(!message.is_empty());
            }
            let id = format!("doc:{s}");
            let encoded = utf8_percent_encode(&id, NON_ALPHANUMERIC).to_string();
            let uri = format!("repocue://repo-0123456789abcdef01234567/entity/{encoded}");
            let parsed = parse_uri(&uri).map(|u| u.target);
            prop_assert_eq!(parsed, Ok(Target::Entity(id)));
        }
    }
}
