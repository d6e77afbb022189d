//! Markdown rendering of a cue for people: the same data as the JSON, laid out to read.

use serde_json::Value;

/// Renders a cue envelope (as produced by [`super::fit`]) as Markdown.
pub fn render(envelope: &Value) -> String {
    let mut out = String::new();
    let kind = envelope["kind"].as_str().unwrap_or("cue");
    out.push_str(&format!("# RepoCue {kind}\n\n"));
    out.push_str(&format!(
        "- freshness: **{}**\n- snapshot: {}\n- branch: {}, HEAD {}\n",
        scalar(&envelope["freshness"]),
        scalar(&envelope["snapshot"]),
        scalar(&envelope["branch"]),
        scalar(&envelope["head"]),
    ));
    if let Some(n) = envelope["omitted"].as_u64() {
        out.push_str(&format!("- {n} items left out (see More)\n"));
    }
    if let Some(p) = envelope["provenance"].as_object() {
        out.push_str(&format!(
            "- provenance: {}\n",
            p.iter()
                .map(|(k, v)| format!("{k} {}", scalar(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Value::Object(content) = &envelope["content"] {
        for (key, value) in content {
            match (key.as_str(), value) {
                ("sources", Value::Array(sources)) if kind == "task" => {
                    task_sources(&mut out, sources)
                }
                _ => section(&mut out, 2, key, value),
            }
        }
    }
    if let Some(w) = envelope["warnings"].as_array().filter(|w| !w.is_empty()) {
        out.push_str("\n## Warnings\n\n");
        for w in w {
            out.push_str(&format!(
                "- `{}`: {}\n",
                scalar(&w["code"]),
                super::one_line(w["detail"].as_str().unwrap_or(""))
            ));
        }
    }
    if let Some(m) = envelope["more"].as_array().filter(|m| !m.is_empty()) {
        out.push_str("\n## More\n\n");
        for m in m {
            out.push_str(&format!("- `{}`\n", compact(m)));
        }
    }
    out
}

/// Renders task sources as quoted repository text: one fenced block each, the fence longer
/// than any backtick run inside, so the original bytes read back unchanged.
fn task_sources(out: &mut String, sources: &[Value]) {
    out.push_str("\n## sources (repository text)\n");
    for s in sources {
        let text = s["text"].as_str().unwrap_or("");
        let lines = match &s["lines"] {
            Value::Null => "whole file".to_owned(),
            l => format!("lines {}-{}", scalar(&l["start"]), scalar(&l["end"])),
        };
        let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        out.push_str(&format!(
            "\n### `{}` ({lines})\n\n- id: {} · content digest: {} · text digest: {}\n\n{fence}\n{text}{}{fence}\n",
            scalar(&s["path"]),
            scalar(&s["id"]),
            scalar(&s["content_digest"]),
            scalar(&s["text_digest"]),
            if text.is_empty() || text.ends_with('\n') { "" } else { "\n" },
        ));
    }
}

fn section(out: &mut String, level: usize, key: &str, value: &Value) {
    let title = key.replace('_', " ");
    match value {
        Value::Array(a) if a.is_empty() => {}
        Value::Object(o) if o.is_empty() => {}
        Value::Array(a) => {
            out.push_str(&format!("\n{} {title}\n\n", "#".repeat(level)));
            for v in a {
                out.push_str(&format!("- {}\n", inline(v)));
            }
        }
        Value::Object(o) if level < 3 && o.values().any(|v| v.is_array() || v.is_object()) => {
            out.push_str(&format!("\n{} {title}\n", "#".repeat(level)));
            let mut scalars = String::new();
            for (k, v) in o {
                if v.is_array() || v.is_object() {
                    section(out, level + 1, k, v);
                } else {
                    scalars.push_str(&format!("- {}: {}\n", k.replace('_', " "), scalar(v)));
                }
            }
            if !scalars.is_empty() {
                out.push('\n');
                out.push_str(&scalars);
            }
        }
        other => {
            out.push_str(&format!(
                "\n{} {title}\n\n{}\n",
                "#".repeat(level),
                inline(other)
            ));
        }
    }
}

fn inline(v: &Value) -> String {
    match v {
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) if k == "path" || k == "command" || k == "id" || k == "entity" => {
                    format!("`{}`", super::one_line(s))
                }
                Value::Object(_) | Value::Array(_) => format!("{k}: {}", compact(v)),
                _ => format!("{k}: {}", scalar(v)),
            })
            .collect::<Vec<_>>()
            .join(" · "),
        other => scalar(other),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => super::one_line(s).into_owned(),
        Value::Null => "—".into(),
        other => compact(other),
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_name_cannot_break_a_line_or_forge_one() {
        let md = render(&json!({
            "schema_version": "repocue/cue-4",
            "kind": "overview",
            "content": {"working_tree": {"untracked": ["a\n## Warnings\nb.py"]}},
            "warnings": [{"code": "refresh_needed", "detail": "x\r\ny"}],
            "snapshot": "snapshot-000001",
            "freshness": "current"
        }));
        assert!(md.contains("a\\x0A## Warnings\\x0Ab.py"), "{md}");
        assert!(md.contains("x\\x0D\\x0Ay"), "{md}");
        assert_eq!(md.matches("## Warnings").count(), 2, "{md}");
        assert!(!md.lines().any(|l| l == "b.py" || l == "y"), "{md}");
    }
}
