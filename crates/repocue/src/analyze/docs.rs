//! Document outlines: title, headings, links and the first meaningful sentence, for
//! Markdown, reStructuredText, AsciiDoc, RDoc and plain text.

use serde::{Deserialize, Serialize};

use crate::classify;

/// Most headings kept per document.
const MAX_HEADINGS: usize = 200;
/// Most links kept per document.
const MAX_LINKS: usize = 200;

/// The outline of one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocFacts {
    /// The first top-level heading.
    pub title: Option<String>,
    /// Headings in order.
    pub headings: Vec<Heading>,
    /// Link targets (relative paths and URLs) in order of first appearance.
    pub links: Vec<String>,
    /// The first meaningful prose sentence (repository text, labelled as such in cues).
    pub purpose: Option<String>,
    /// A sentence that says what something is (`Fastify is a web framework…`) in the few
    /// paragraphs after the purpose, before the next heading, when the purpose is no such
    /// sentence: fastify's README
    /// opens with "An efficient server implies a lower cost of the infrastructure…". The
    /// overview takes it when it names the project and the purpose does not.
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<String>,
    /// Identifiers the document shows as code (inline code spans, fenced blocks), each once,
    /// sorted: what its readers are told to call. Never shown in cues; ranking counts the
    /// documents that name a symbol.
    #[serde(rename = "c", default, skip_serializing_if = "Vec::is_empty")]
    pub code_names: Vec<String>,
    /// A sentence near the start that says the project is deprecated, archived or no longer
    /// maintained (repository text): javapoet's "As of 2020-10-10, Square's JavaPoet project
    /// is deprecated." ([`status_notice`]).
    #[serde(rename = "n", default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// For a license file (`LICENSE`, `COPYING`, `LICENSE.md`, …), the SPDX identifier of the
    /// license its text is ([`spdx`]): what a project without a manifest license field (Go,
    /// C, C++) declares.
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
}

/// Whether a file name names a license file: `LICENSE`, `LICENCE`, `COPYING` or `UNLICENSE`
/// in any case, with or without an extension or a suffix (`LICENSE-MIT`, `license.txt`).
pub fn is_license_file(path: &[u8]) -> bool {
    let upper = crate::paths::file_name(path).to_ascii_uppercase();
    [b"LICENSE".as_slice(), b"LICENCE", b"COPYING", b"UNLICENSE"]
        .iter()
        .any(|n| upper.starts_with(n))
}

/// The SPDX identifier of a license text, by the words of its opening (the first 3,000
/// characters, white space folded): the licenses most projects use, `None` for any other.
/// Checked from the most specific: the Boost license grants permission in MIT's words, the
/// Lesser and Affero GPLs name the GPL.
pub fn spdx(text: &str) -> Option<&'static str> {
    let head: String = text.chars().take(3_000).collect::<String>().to_lowercase();
    let head = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let has = |words: &str| head.contains(words);
    let version = |v: &str| has(&format!("version {v}"));
    // Of the GNU licenses, the one the text names first is its title: the GPL's own text
    // points to the Lesser GPL in its preamble (zstd's `COPYING`, GPL-2.0, read as LGPL-2.1).
    let gnu = [
        "gnu lesser general public license",
        "gnu library general public license",
        "gnu affero general public license",
        "gnu general public license",
    ]
    .into_iter()
    .filter_map(|name| head.find(name).map(|at| (at, name)))
    .min()
    .map(|(_, name)| name);
    let id = if has("boost software license") {
        "BSL-1.0"
    } else if gnu == Some("gnu lesser general public license") {
        if version("3") {
            "LGPL-3.0"
        } else {
            "LGPL-2.1"
        }
    } else if gnu == Some("gnu library general public license") {
        "LGPL-2.0"
    } else if gnu == Some("gnu affero general public license") {
        "AGPL-3.0"
    } else if gnu.is_some() {
        if version("3") {
            "GPL-3.0"
        } else if version("2") {
            "GPL-2.0"
        } else {
            return None;
        }
    } else if has("mozilla public license") && has("2.0") {
        "MPL-2.0"
    } else if has("apache license") && version("2.0") {
        "Apache-2.0"
    } else if has("this is free and unencumbered software released into the public domain") {
        "Unlicense"
    } else if has("isc license")
        || has("permission to use, copy, modify, and/or distribute this software for any purpose")
    {
        "ISC"
    } else if has("mit license") || has("permission is hereby granted, free of charge") {
        "MIT"
    } else if has("redistribution and use in source and binary forms") {
        if has("neither the name") || has("names of its contributors may be used") {
            "BSD-3-Clause"
        } else {
            "BSD-2-Clause"
        }
    } else if has("altered source versions must be plainly marked") {
        "Zlib"
    } else {
        return None;
    };
    Some(id)
}

/// One heading of a document outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// 1 for a title, 2 for a section, ...
    pub level: u8,
    /// Heading text, inline markup removed.
    pub text: String,
    /// 1-based line number.
    pub line: u32,
}

/// Extracts the outline of a document, `None` for files that are not documents.
pub fn analyze(path: &[u8], language: Option<&str>, text: &str) -> Option<DocFacts> {
    if !classify::is_document(path, language) {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut facts = DocFacts::default();
    let mut in_fence = false;
    let mut in_comment = false;
    let mut paragraph: Vec<&str> = Vec::new();
    let mut scan = PurposeScan::default();
    let mut names = CodeNames::default();
    // The title: the first level-1 heading above the document's first sentence. One below
    // it heads a section (fmt's README opens with its logo, badges and "{fmt} is an
    // open-source formatting library …", then `# Features`; koa's has one `# License` at
    // the end).
    let (front_lines, mut title) = front_matter(&lines, language);
    // The level of the announcements section the lines are in, if any ([`announces_news`]).
    let mut in_news: Option<u8> = None;
    let mut literal = RstLiteral {
        rst: language == Some("reStructuredText"),
        open: false,
    };
    for (i, raw) in lines.iter().enumerate().skip(front_lines) {
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if literal.takes(line, &mut names) {
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            names.add_code(line);
            continue;
        }
        // An HTML comment is no part of the document: Apache projects open their README with
        // the license header in one, whose sentences read as the project's purpose.
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("<!--") {
            in_comment = !rest.contains("-->");
            continue;
        }
        names.add_spans(line);
        if let Some((level, text)) = heading_at(&lines, i) {
            flush_purpose(&mut paragraph, &mut scan);
            let titles = level == 1 && title.is_none() && scan.purpose.is_none();
            if titles {
                title = Some(strip_inline(&text)).filter(|t| !t.is_empty());
            }
            scan.passed_heading(titles, &text);
            if in_news.is_some_and(|l| level <= l) {
                in_news = None;
            }
            if in_news.is_none() && announces_news(&text) {
                in_news = Some(level);
            }
            push_heading(&mut facts, level, &text, i as u32 + 1);
            continue;
        }
        if is_underline(line) {
            continue;
        }
        collect_links(line, &mut facts.links);
        if is_link_definition(trimmed) {
            // `[label]: target "title"`: what reference-style links (`[label][]`) point to.
            if let Some(target) = definition_target(trimmed) {
                push_link(target, &mut facts.links);
            }
            continue;
        }
        // An HTML paragraph (`<p …>…</p>`) is one of its own even without blank lines around
        // it: axios's `<p align="center">Promise based HTTP client for the browser and
        // node.js</p>` is followed at once by a `<p>` of links.
        let html_paragraph = trimmed.starts_with("<p>") || trimmed.starts_with("<p ");
        if trimmed.is_empty() || html_paragraph {
            flush_purpose(&mut paragraph, &mut scan);
        }
        if !trimmed.is_empty() && scan.wants_text() && in_news.is_none() {
            // (Its closing tag cut: right after a word, `js</p>`, it reads as text.)
            match trimmed.strip_suffix("</p>").filter(|_| html_paragraph) {
                Some(one_line) => {
                    paragraph.push(one_line);
                    flush_purpose(&mut paragraph, &mut scan);
                }
                None => paragraph.push(trimmed),
            }
        }
    }
    flush_purpose(&mut paragraph, &mut scan);
    (facts.purpose, facts.definition) = (scan.purpose, scan.definition);
    facts.code_names = names.into_sorted();
    facts.notice = status_notice(&lines[front_lines.min(lines.len())..]);
    facts.title = title;
    // A purpose that defines the document's subject needs no other definition (flask's
    // "Flask is a lightweight WSGI web application framework."); one that defines something
    // else does (okhttp's "HTTP is the way modern applications network.", then "OkHttp is an
    // HTTP client that's efficient by default:").
    if let (Some(purpose), Some(title)) = (&facts.purpose, &facts.title) {
        if defines(purpose) && subject(purpose).is_some_and(|s| s.eq_ignore_ascii_case(title)) {
            facts.definition = None;
        }
    }
    if is_license_file(path) {
        facts.license = spdx(text).map(str::to_owned);
    }
    Some(facts)
}

/// How far into a document its status is looked for, in lines: a notice that matters is
/// near the top (javapoet's "Deprecated (really)" section is its second).
const NOTICE_LINES: usize = 80;
/// Longest notice kept, in characters.
const MAX_NOTICE: usize = 200;

/// The sentence that says the project itself is deprecated, archived or no longer
/// maintained, in the document's first [`NOTICE_LINES`] lines outside code: the first
/// sentence with such words in a section whose heading says so (`## Deprecated`, `Project
/// status`), or one that names the project as its subject (`this project`, `this library`,
/// `the repository`). A part of the API that is deprecated ("The `foo` option is deprecated")
/// is no notice.
fn status_notice(lines: &[&str]) -> Option<String> {
    const STATUS: &[&str] = &[
        "deprecated",
        "no longer maintained",
        "no longer being maintained",
        "not maintained",
        "not actively maintained",
        "unmaintained",
        "no longer supported",
        "no longer under active development",
        "archived",
        "end of life",
        "end-of-life",
        "maintenance mode",
        // A default branch ahead of the release an agent's users run (axum's "the `main`
        // branch contains breaking changes. See the `0.8.x` branch for what's released").
        "contains breaking changes",
        "contains unreleased",
        "expect breaking changes",
    ];
    const SUBJECTS: &[&str] = &[
        "project",
        "library",
        "repository",
        "repo",
        "package",
        "crate",
        "module",
        "gem",
    ];
    let says_status = |s: &str| STATUS.iter().any(|w| s.contains(w));
    // The project's name, its title's first word, is a subject as `this project` is:
    // logrus's "**Logrus is in maintenance mode.**".
    // Its first word, or the whole title: junit4's "JUnit 4 is in maintenance mode.".
    let title: Option<String> = lines
        .iter()
        .find_map(|l| markdown_heading(l.trim()).filter(|(level, _)| *level == 1))
        .map(|(_, t)| strip_inline(&t).to_ascii_lowercase());
    let first_word = title
        .as_deref()
        .and_then(|t| t.split_whitespace().next())
        .filter(|t| t.len() >= 2);
    let mut in_status_section = false;
    let mut in_fence = false;
    let mut paragraph = String::new();
    let mut found: Option<String> = None;
    let mut check = |paragraph: &mut String, in_section: bool| {
        let text = strip_inline(paragraph);
        paragraph.clear();
        if found.is_some() {
            return;
        }
        for sentence in sentences(&text) {
            let lower = sentence.to_ascii_lowercase();
            let about_project = SUBJECTS.iter().any(|w| {
                lower.contains(&format!("this {w}")) || lower.contains(&format!(" {w} is"))
            }) || [first_word, title.as_deref()]
                .into_iter()
                .flatten()
                .any(|t| lower.starts_with(&format!("{t} is ")))
                // A label opening the paragraph: "DEPRECATED: use zap."
                || ["deprecated:", "deprecated.", "deprecated!", "unmaintained:", "archived:"]
                    .iter()
                    .any(|label| lower.starts_with(label));
            if says_status(&lower) && (in_section || about_project) {
                found = Some(truncate_chars(&sentence, MAX_NOTICE));
                return;
            }
        }
    };
    for (i, raw) in lines.iter().take(NOTICE_LINES).enumerate() {
        let line = raw.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || line.starts_with("<!--") {
            continue;
        }
        let heading = markdown_heading(line)
            .or_else(|| html_heading(line))
            .or_else(|| underline_heading(raw, lines.get(i + 1)));
        if let Some((_, text)) = heading {
            check(&mut paragraph, in_status_section);
            let lower = text.to_ascii_lowercase();
            in_status_section = says_status(&lower)
                || lower.contains("deprecat")
                || lower.contains("status")
                || lower.contains("maintenance")
                || lower.contains("breaking change");
            continue;
        }
        if is_underline(line) {
            continue;
        }
        if line.is_empty() {
            check(&mut paragraph, in_status_section);
        } else {
            // A quoted notice (`> **Note** This project is archived.`) reads as its text; a
            // GitHub alert's marker (`> [!WARNING]`) is none of it.
            let text = line.trim_start_matches('>').trim_start();
            if !is_alert_marker(text) {
                paragraph.push_str(text);
                paragraph.push(' ');
            }
        }
    }
    check(&mut paragraph, in_status_section);
    found
}

/// Whether a line is a GitHub alert's marker: `[!NOTE]`, `[!WARNING]`, `[!CAUTION]`, …
fn is_alert_marker(text: &str) -> bool {
    text.strip_prefix("[!")
        .and_then(|t| t.strip_suffix(']'))
        .is_some_and(|kind| !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphabetic()))
}

/// What a defining sentence defines: the words before its `is` (see [`defining`]).
pub(crate) fn subject(sentence: &str) -> Option<&str> {
    let lower = sentence.to_lowercase();
    let at = ["is a ", "is an ", "is the "]
        .iter()
        .filter_map(|verb| lower.find(&format!(" {verb}")))
        .min()?;
    sentence.get(..at)
}

/// Most code names kept per document (the first ones it shows).
const MAX_CODE_NAMES: usize = 400;
/// Shorter identifiers (`x`, `id`, `fn`) name nothing worth ranking.
const MIN_CODE_NAME: usize = 3;

/// The identifiers a document shows as code, in order of first appearance.
#[derive(Default)]
struct CodeNames {
    seen: std::collections::HashSet<String>,
    order: Vec<String>,
}

impl CodeNames {
    /// Adds the identifiers of a line of code.
    fn add_code(&mut self, code: &str) {
        for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            let starts_like_a_name = word
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            if word.chars().count() >= MIN_CODE_NAME
                && starts_like_a_name
                && self.order.len() < MAX_CODE_NAMES
                && self.seen.insert(word.to_owned())
            {
                self.order.push(word.to_owned());
            }
        }
    }

    /// Adds the identifiers of a prose line's code spans (`` `name()` ``, AsciiDoc and
    /// reStructuredText's double backticks alike).
    fn add_spans(&mut self, line: &str) {
        let mut parts = line.split('`');
        parts.next();
        // Between the first and second tick, the third and fourth, ...: empty parts are the
        // inside of a double tick.
        let mut inside = true;
        for part in parts {
            if inside && !part.is_empty() {
                self.add_code(part);
            }
            if !part.is_empty() {
                inside = !inside;
            }
        }
    }

    fn into_sorted(mut self) -> Vec<String> {
        self.order.sort();
        self.order
    }
}

fn push_heading(facts: &mut DocFacts, level: u8, text: &str, line: u32) {
    let text = strip_inline(text);
    if text.is_empty() || facts.headings.len() >= MAX_HEADINGS {
        return;
    }
    facts.headings.push(Heading { level, text, line });
}

/// reStructuredText's literal blocks: the indented block after a directive (`.. code-block::
/// python`) or a paragraph ending in `::` is code, like a Markdown fence's, no prose (aiohttp's
/// README read "import aiohttp import asyncio" as its purpose).
struct RstLiteral {
    /// Whether the document is reStructuredText.
    rst: bool,
    /// Whether the lines are in a literal block.
    open: bool,
}

impl RstLiteral {
    /// Takes a line of a literal block, its names as code; `false` for any other line (a
    /// blank one ends the paragraph above, a block's or not).
    fn takes(&mut self, line: &str, names: &mut CodeNames) -> bool {
        let trimmed = line.trim_start();
        if self.open && !trimmed.is_empty() {
            if indentation(line) > 0 {
                names.add_code(line);
                return true;
            }
            self.open = false;
        }
        let opens = (trimmed.starts_with(".. ") && trimmed.contains("::")) || line.ends_with("::");
        if self.rst && opens {
            self.open = true;
        }
        false
    }
}

/// Whether a heading opens a section of news (`Announcements`, `News`, `What's new`), whose
/// paragraphs tell what happened lately, not what the project is: googletest's README opens
/// with "Our documentation is now live on GitHub Pages …" under `### Announcements`. So does a
/// section of thanks to sponsors (vuejs/core's `## Sponsors`: "Vue.js is an MIT-licensed open
/// source project with its ongoing development made possible entirely by the support of these
/// awesome backers."), and one of thanks, credits, contributing or the license (its "Thank
/// you to all the people who already contributed to Vue!"), donations or paid support
/// (celery's `Donations`: "Open Collective is our community-powered funding platform …", `For
/// enterprise`), and one of building or installing, whose text is instructions (libevent's
/// `1. BUILDING AND INSTALLATION`: "You can download and install libevent using the vcpkg
/// dependency manager:"): a heading of such words only, or numbers (`Special Thanks`,
/// `Contributors and Sponsors`; not a project named `License Checker`).
fn announces_news(heading: &str) -> bool {
    let text = strip_inline(heading).to_lowercase();
    let text = text.trim_matches(|c: char| !c.is_alphanumeric());
    let words = || {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    };
    let aside = |w: &str| {
        matches!(
            w,
            "sponsors"
                | "sponsorship"
                | "backers"
                | "thanks"
                | "credits"
                | "acknowledgements"
                | "acknowledgments"
                | "contributing"
                | "contribution"
                | "contributions"
                | "contributors"
                | "license"
                | "licence"
                | "donations"
                | "donation"
                | "donate"
                | "funding"
                | "support"
                | "enterprise"
                | "commercial"
                | "professional"
                | "building"
                | "build"
                | "installation"
                | "install"
                | "installing"
                | "requirements"
                | "prerequisites"
                | "useful"
                | "links"
                | "resources"
                | "references"
                | "and"
                | "our"
                | "the"
                | "special"
                | "for"
        )
    };
    let number = |w: &str| w.bytes().all(|b| b.is_ascii_digit());
    let filler = |w: &str| matches!(w, "and" | "our" | "the" | "special" | "for") || number(w);
    matches!(text, "updates" | "what's new" | "whats new" | "notice")
        || words().any(|w| matches!(w, "announcement" | "announcements" | "news"))
        || (words().all(|w| aside(w) || number(w)) && words().any(|w| !filler(w)))
}

/// The indentation from which a line is code rather than a heading.
const CODE_INDENT: usize = 4;

/// The columns of whitespace a line starts with, a tab advancing to the next multiple of four.
fn indentation(line: &str) -> usize {
    let mut columns = 0;
    for c in line.chars() {
        match c {
            ' ' => columns += 1,
            '\t' => columns += CODE_INDENT - columns % CODE_INDENT,
            _ => break,
        }
    }
    columns
}

fn markdown_heading(line: &str) -> Option<(u8, String)> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        let text = line[hashes..].trim().trim_end_matches('#').trim();
        return Some((hashes as u8, text.to_owned()));
    }
    // AsciiDoc and RDoc: "= Title", "== Section".
    let eq = line.bytes().take_while(|&b| b == b'=').count();
    if (1..=6).contains(&eq) && line[eq..].starts_with(' ') {
        return Some((eq as u8, line[eq..].trim().to_owned()));
    }
    None
}

/// An HTML heading on a line of its own, its text without markup: a README that centres its
/// logo titles itself so (zod's `<h1 align="center">Zod</h1>`, which named no project).
fn html_heading(line: &str) -> Option<(u8, String)> {
    let rest = line.strip_prefix("<h")?;
    let level = rest.bytes().next().filter(|b| (b'1'..=b'6').contains(b))? - b'0';
    let attributes = &rest[1..];
    if !attributes.starts_with(['>', ' ']) {
        return None;
    }
    let inner = &attributes[attributes.find('>')? + 1..];
    let inner = inner.strip_suffix(format!("</h{level}>").as_str())?;
    let text = strip_inline(&without_closing_tags(inner));
    (!text.is_empty()).then_some((level, text))
}

fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3
        && t.bytes().all(|b| b == t.as_bytes()[0])
        && matches!(
            t.as_bytes()[0],
            b'=' | b'-' | b'~' | b'^' | b'*' | b'#' | b'+'
        )
}

/// The heading line `i` of `lines` opens, with its level: Markdown's, HTML's, or a setext or
/// reStructuredText one (level 1 when overlined too). A line indented by four columns is code
/// (Markdown's indented code block, an AsciiDoc literal, a plain-text file's example command:
/// git's `INSTALL` shows `\t# make prefix=/usr install` as a root prompt), never a heading.
fn heading_at(lines: &[&str], i: usize) -> Option<(u8, String)> {
    let line = lines[i];
    let trimmed = line.trim_start();
    if indentation(line) >= CODE_INDENT {
        return None;
    }
    markdown_heading(trimmed)
        .or_else(|| html_heading(trimmed))
        .or_else(|| {
            let (level, text) = underline_heading(line, lines.get(i + 1))?;
            Some((if overlined(lines, i) { 1 } else { level }, text))
        })
}

/// Whether the heading at line `i` is overlined as well as underlined, by the same
/// character: reStructuredText's title style (`*******` / `Authors` / `*******`), which comes
/// before every underlined section whatever its character (marshmallow's `AUTHORS.rst` was
/// titled by its first section, "Leads").
fn overlined(lines: &[&str], i: usize) -> bool {
    let (Some(above), Some(below)) = (
        i.checked_sub(1).and_then(|j| lines.get(j)),
        lines.get(i + 1),
    ) else {
        return false;
    };
    is_underline(above) && above.trim().as_bytes().first() == below.trim().as_bytes().first()
}

/// A setext (Markdown) or reStructuredText heading: text followed by an underline.
fn underline_heading(line: &str, next: Option<&&str>) -> Option<(u8, String)> {
    let next = next?.trim_end();
    let text = line.trim();
    if text.is_empty() || !is_underline(next) || next.trim().len() < text.chars().count().min(3) {
        return None;
    }
    if text.starts_with(['-', '*', '|', '>', '.']) || is_underline(text) {
        return None;
    }
    let level = match next.trim().as_bytes()[0] {
        b'=' | b'#' => 1,
        b'-' => 2,
        _ => 3,
    };
    Some((level, text.to_owned()))
}

/// A Markdown document's YAML front matter (a `---` line first, to the next `---` or `...`
/// within [`MAX_FRONT_MATTER`] lines): how many lines it takes, and the `title:` it declares.
/// Its lines are no text of the document: Prometheus's `docs/index.md` was titled "todo:
/// internal", a YAML comment read as a heading.
fn front_matter(lines: &[&str], language: Option<&str>) -> (usize, Option<String>) {
    if language != Some("Markdown") || lines.first().map(|l| l.trim_end()) != Some("---") {
        return (0, None);
    }
    let Some(end) = lines
        .iter()
        .take(MAX_FRONT_MATTER)
        .skip(1)
        .position(|l| matches!(l.trim_end(), "---" | "..."))
    else {
        return (0, None);
    };
    let title = lines[1..=end].iter().find_map(|l| {
        let value = l.strip_prefix("title:")?.trim().trim_matches(['"', '\'']);
        let value = strip_inline(value);
        (!value.is_empty()).then_some(value)
    });
    (end + 2, title)
}

/// Most lines of a front matter block ([`front_matter`]).
const MAX_FRONT_MATTER: usize = 100;

/// Paragraphs of prose after the purpose searched for a defining sentence.
const DEFINITION_PARAGRAPHS: usize = 3;

/// The purpose sentence being looked for, then a defining sentence a few paragraphs on.
#[derive(Default)]
struct PurposeScan {
    purpose: Option<String>,
    definition: Option<String>,
    /// Headings passed below the document's title: the purpose is no longer in its opening.
    sections: usize,
    /// Paragraphs read since the purpose.
    after: usize,
    /// In a later section whose heading may answer what the project is (viper's "Why use
    /// Viper?" under a tagline): the heading's words, lower case, and the paragraphs read in
    /// it.
    later: Option<(Vec<String>, usize)>,
}

impl PurposeScan {
    /// A heading is passed (`title`: the document's): a definition is looked for in the
    /// purpose's own section only (pydantic's "Pydantic V2 is a ground-up rewrite…" under
    /// "V1.10 vs. V2" replaced its purpose), and below the title the opening is over.
    fn passed_heading(&mut self, title: bool, text: &str) {
        if self.purpose.is_some() {
            self.after = DEFINITION_PARAGRAPHS;
            self.later = (self.sections < LATER_SECTIONS).then(|| (words_of(text), 0));
        }
        if !title {
            self.sections += 1;
        }
    }

    /// Whether paragraphs are still read.
    fn wants_text(&self) -> bool {
        let later = self
            .later
            .as_ref()
            .is_some_and(|(_, read)| *read < DEFINITION_PARAGRAPHS);
        self.purpose.is_none()
            || (self.definition.is_none() && (self.after < DEFINITION_PARAGRAPHS || later))
    }
}

/// How many sections after the purpose's a definition of the project is looked for in, when
/// the section's heading names what the sentence defines.
const LATER_SECTIONS: usize = 4;

/// The words of a heading or subject, lower case, without Markdown and punctuation.
fn words_of(text: &str) -> Vec<String> {
    strip_inline(text)
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .map(|w| w.trim_matches('.').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn flush_purpose(paragraph: &mut Vec<&str>, scan: &mut PurposeScan) {
    if paragraph.is_empty() || !scan.wants_text() {
        paragraph.clear();
        return;
    }
    // A list (a table of contents, a row of links, a feature list) is not a sentence about
    // the project: its items joined read as one ("Install Usage License …"); the lines
    // above a list are read without it (Dapper's "Package Purposes:" over its packages).
    let list = paragraph.first().is_some_and(|first| is_list_item(first));
    let items = paragraph
        .iter()
        .position(|line| is_list_item(line))
        .unwrap_or(paragraph.len());
    let raw = paragraph[..items.max(1)].join(" ");
    paragraph.clear();
    let prose = (!list).then(|| prose_of(&raw)).flatten();
    if scan.purpose.is_some() {
        // Only prose counts: typer's definition follows its tagline past a row of badges, a
        // rule and two link lines.
        let sentences = prose.iter().flat_map(|text| sentences(text));
        if scan.after < DEFINITION_PARAGRAPHS {
            scan.after += usize::from(prose.is_some());
            scan.definition = sentences
                .into_iter()
                .find_map(|s| defining(&s).filter(|d| !announces(d)).map(str::to_owned));
        } else if let Some((heading, read)) = scan.later.as_mut() {
            // A later section answers only for what its heading names: viper's "Viper is a
            // complete configuration solution…" under "Why use Viper?", not pydantic's
            // "Pydantic V2 is a ground-up rewrite…" under "V1.10 vs. V2".
            *read += usize::from(prose.is_some());
            let named = |d: &str| {
                subject(d).is_some_and(|s| words_of(s).iter().all(|w| heading.contains(w)))
            };
            scan.definition = sentences.into_iter().find_map(|s| {
                defining(&s)
                    .filter(|d| !announces(d) && named(d))
                    .map(str::to_owned)
            });
        }
        return;
    }
    let Some(text) = prose else {
        return;
    };
    // A blockquote's text without its markers: a tagline quoted is a purpose, an admonition
    // (`> **Note:** This repository contains…`, `> [!WARNING]`) an aside.
    let quoted = raw.trim_start().starts_with('>');
    let text = match quoted {
        true => text
            .replace("> ", " ")
            .trim_start_matches(['>', ' '])
            .to_owned(),
        false => text,
    };
    let sentence = first_sentence(&text);
    // A quotation that opens with a heading is a section set aside (viper's "> ## Viper v2
    // Feedback"), no tagline.
    let quoted_section = quoted
        && raw
            .trim_start()
            .trim_start_matches(['>', ' '])
            .starts_with('#');
    // Quoted or not: commandline's README opens with "**Note:** the API surface has changed
    // since v1.9.x and earlier."
    let admonition =
        quoted_section || is_admonition(raw.trim_start().trim_start_matches(['>', ' ', '*', '_']));
    // A sentence that says what its subject is points nowhere else, whatever its first word:
    // "Click is a Python package for creating beautiful command line interfaces" is no
    // "Click here".
    if speaks_of_itself(&sentence)
        || admonition
        || announces(&sentence)
        || introduces_steps(&sentence)
        // A question asks the reader (aiohttp's "Coming from requests ?"); it says nothing.
        || sentence.trim_end().ends_with('?')
        // Past the opening section, a sentence that ends with a colon and says what nothing is
        // leads to what follows ("All tests need the features enabled:" under "Testing", when
        // the tagline was too short to be a purpose); crossbeam's opening "This crate
        // provides a set of tools for concurrent programming:" stays.
        || (scan.sections > 0 && sentence.trim_end().ends_with(':') && !defines(&sentence))
        // Past it, an instruction is a section's how-to, no purpose: "Use JsonPatch.Apply to
        // patch documents." under "## Patching" when the opening is badges and links.
        || (scan.sections > 0 && instructs(&sentence))
        || asks_for_money(&sentence)
        || (points_elsewhere(&sentence) && !defines(&sentence))
    {
        return;
    }
    scan.purpose = Some(sentence);
}

/// Whether a sentence opens with a verb that tells the reader what to do.
fn instructs(sentence: &str) -> bool {
    const VERBS: &[&str] = &[
        "Add",
        "Build",
        "Call",
        "Check",
        "Clone",
        "Configure",
        "Create",
        "Download",
        "Enable",
        "Import",
        "Install",
        "Pass",
        "Read",
        "Run",
        "See",
        "Set",
        "Try",
        "Use",
        "Write",
    ];
    sentence
        .split_whitespace()
        .next()
        .is_some_and(|w| VERBS.contains(&w.trim_end_matches([',', ':'])))
}

/// A paragraph's text when it is prose: not HTML banners, badges or link rows, a table, or
/// too short to say anything.
fn prose_of(raw: &str) -> Option<String> {
    // reStructuredText's explicit markup (`.. |logo| image:: https://…`, `.. _Scrapy:
    // https://…`, `.. code:: bash`, a comment) is no text of the document.
    if is_link_row(raw) || raw.trim_start().starts_with(".. ") {
        return None;
    }
    let text = strip_inline(raw);
    // HTML whose text keeps markup is a banner, not a description: prometheus's `<p
    // align="center">Visit <a …>prometheus.io</a> for the full documentation…</p>` (babel's
    // `<p align="center">The compiler for writing next generation JavaScript.</p>` is one).
    let markup = text
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1] == b'/' || w[1].is_ascii_alphabetic()));
    let html = raw.trim_start().starts_with('<');
    if html && markup {
        // Unless what is left once the closing tags after words go too defines the project:
        // fiber's centred `<b>Fiber</b> is an <a …>Express</a> inspired <b>web framework</b>
        // …` (a tagline that only describes, axios's, stays out as before).
        let text = without_closing_tags(&text);
        let defining = !text.contains('<') && defines(&first_sentence(&text));
        return defining.then_some(text);
    }
    if html && !says_more_than_banners(raw) {
        return None;
    }
    // Prose with inline HTML loses its closing tags too: typer's definition read
    // "building CLI</abbr> applications".
    let text = match html {
        true => text,
        false => without_closing_tags(&text),
    };
    let alpha = text.chars().filter(|c| c.is_alphabetic()).count();
    // Badges, images, HTML and link rows are not a description of the project, nor a label
    // before an address (Dapper's "MyGet Pre-release feed: https://…"), nor RDoc's labelled
    // list of them (rake's "home :: https://… bugs :: https://…"): four words besides
    // addresses and labels' `::` make a sentence.
    let words = text
        .split_whitespace()
        .filter(|w| !w.contains("://") && *w != "::")
        .count();
    let sentence_like = words >= 4;
    let prose = alpha >= 20
        && sentence_like
        && !text.starts_with('<')
        && !text.starts_with('|')
        && !text.starts_with(':');
    prose.then_some(text)
}

/// Text without the closing tags [`strip_inline`] keeps (`Express</a>`: a `<` right after a
/// word may be a type's, `Vec<T>`), spaces as [`strip_inline`] leaves them.
fn without_closing_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("</") {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 2..];
        let name = tag.bytes().take_while(u8::is_ascii_alphanumeric).count();
        match tag.as_bytes().get(name) {
            Some(b'>') if name > 0 => rest = &tag[name + 1..],
            _ => {
                out.push_str("</");
                rest = tag;
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest paragraph read as a row of links ([`is_link_row`]): rich's row of seventeen
/// translations is 1,500 bytes.
const MAX_LINK_ROW: usize = 4096;

/// Whether a paragraph is only links and what separates them (rich's "[English readme](…)
/// • [简体中文 readme](…) • …", a row of its translations): no letter outside a link.
fn is_link_row(raw: &str) -> bool {
    // A row of links is short; looking for each bracket's close is quadratic in the worst
    // case (a paragraph of 100,000 `[`), bounded so.
    if raw.len() > MAX_LINK_ROW {
        return false;
    }
    let mut rest = raw;
    let mut outside = String::new();
    let mut links = 0;
    while let Some(open) = rest.find('[') {
        outside.push_str(&rest[..open]);
        let after = &rest[open..];
        // `[text](target)` or `[text][label]`; anything else is text.
        let link_end = after.find("](").and_then(|close| {
            let target = &after[close + 2..];
            Some(close + 2 + target.find(')')? + 1)
        });
        let reference_end = after.find("][").and_then(|close| {
            let label = &after[close + 2..];
            Some(close + 2 + label.find(']')? + 1)
        });
        match link_end.into_iter().chain(reference_end).min() {
            Some(end) => {
                links += 1;
                rest = &after[end..];
            }
            None => {
                outside.push('[');
                rest = &after[1..];
            }
        }
    }
    outside.push_str(rest);
    links >= 2 && !outside.chars().any(char::is_alphanumeric)
}

/// A paragraph's sentences, each as [`first_sentence`] cuts it.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() && out.len() < 8 {
        let sentence = first_sentence(rest);
        let taken = sentence.trim_end_matches('…').len();
        rest = rest.get(taken..).unwrap_or_default().trim_start();
        out.push(sentence);
        if taken == 0 {
            break;
        }
    }
    out
}

/// Whether a sentence says what its subject is: one to three words, then `is a`, `is an`,
/// `is the` (`Fastify is a web framework…`, `curl is a command-line tool…`).
pub(crate) fn defines(sentence: &str) -> bool {
    defining(sentence).is_some_and(|d| d.len() == sentence.len())
}

/// The part of a sentence that says what its subject is (see [`defines`]), after a short
/// sentence that [`first_sentence`] leaves joined to it: "Enter Fastify. Fastify is a web
/// framework…" gives "Fastify is a web framework…".
fn defining(sentence: &str) -> Option<&str> {
    let lower = sentence.to_lowercase();
    ["is a ", "is an ", "is the "].iter().find_map(|verb| {
        // (Lower case may differ in length: the subject is cut from the original only where
        // that is a character boundary.)
        let at = lower.find(&format!(" {verb}"))?;
        let before = sentence.get(..at)?;
        let start = before.rfind(". ").map_or(0, |i| i + 2);
        let subject = &before[start..];
        let words = subject.split_whitespace().count();
        (!subject.contains([',', ':', ';', '(', '.']) && (1..=3).contains(&words))
            .then(|| &sentence[start..])
    })
}

/// Whether an HTML paragraph says something besides links and fine print: ky's README opens
/// with a sponsor block whose text is all `<sup>` ("Sindre's open source work is supported
/// by the community.") and a link wrapping a sponsor's logo and slogan.
fn says_more_than_banners(raw: &str) -> bool {
    let mut rest = raw.to_owned();
    for tag in ["a", "sup", "sub", "small"] {
        rest = without_elements(&rest, tag);
    }
    strip_inline(&rest).split_whitespace().count() >= 4
}

/// `html` without the elements of one tag, their content included (`<a …>…</a>`); an element
/// left open runs to the end. Tag names match in any case; nesting of the same tag is not
/// followed.
fn without_elements(html: &str, tag: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    while let Some(i) = lower[at..].find(&open).map(|i| at + i) {
        // `<a` must be the whole tag name: not `<abbr>`.
        let next = lower.as_bytes().get(i + open.len()).copied();
        if !matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'/')) {
            out.push_str(&html[at..i + open.len()]);
            at = i + open.len();
            continue;
        }
        out.push_str(&html[at..i]);
        at = match lower[i..].find(&close) {
            Some(j) => i + j + close.len(),
            None => html.len(),
        };
        out.push(' ');
    }
    out.push_str(&html[at..]);
    out
}

/// Whether a sentence is about the document it opens, not the project: redis's README
/// begins "This README is just a fast quick start document."
fn speaks_of_itself(sentence: &str) -> bool {
    let mut words = sentence.split_whitespace();
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default().to_ascii_lowercase();
    let second = second.trim_end_matches([',', '.', ':']);
    first.eq_ignore_ascii_case("this") && matches!(second, "readme" | "document" | "file" | "page")
}

/// Whether a sentence sends the reader elsewhere rather than saying what the project is:
/// spring-petclinic's README opens with "See the presentation here:" above "Spring Petclinic
/// is a Spring Boot application…".
fn points_elsewhere(sentence: &str) -> bool {
    let mut words = sentence.split_whitespace();
    let first = words.next().unwrap_or_default();
    // "For questions and support please use the official forum", "For more information, …".
    let second = words.next().unwrap_or_default().trim_end_matches(',');
    let asks = first.eq_ignore_ascii_case("for")
        && (["questions", "support", "help", "more", "details"]
            .iter()
            .any(|w| second.eq_ignore_ascii_case(w))
            // "For the latest released version of Libevent, see the official website at …".
            || [", see ", ", visit ", ", read ", ", check "]
                .iter()
                .any(|w| sentence.to_ascii_lowercase().contains(w)));
    asks || ["see", "visit", "read", "check", "click", "please"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
}

/// Whether a sentence asks for money, whatever section it stands in: Dear ImGui's README
/// opens with "Businesses: support continued development and maintenance via invoiced
/// sponsoring/support contracts" above "Dear ImGui is a bloat-free graphical user interface
/// library for C++."
fn asks_for_money(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    [
        "sponsoring",
        "sponsor us",
        "become a sponsor",
        "donate",
        "donation",
        "paypal",
        "patreon",
        "open collective",
        "opencollective",
        "financial support",
        "funding",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether a sentence is an instruction that introduces what follows (code, a list): aiohttp's
/// "To get something from the web:" above its first example, libevent's "You can download and
/// install libevent using the vcpkg dependency manager:". Not a description that ends with a
/// colon, crossbeam's "This crate provides a set of tools for concurrent programming:".
fn introduces_steps(sentence: &str) -> bool {
    let first = sentence.split_whitespace().next().unwrap_or_default();
    let opens = sentence.trim_end().ends_with(':')
        && [
            "to", "you", "run", "use", "install", "try", "first", "then", "now", "here",
        ]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w));
    // Nor does one that leads to a list it names, unless it says what something is: efcore's
    // "This repository is home to the following .NET Foundation projects."
    let leads = sentence.to_lowercase().contains("the following") && !defines(sentence);
    opens || leads
}

/// Whether a sentence is news, not what the project is: gin's README opens with "We're
/// excited to announce the release of Gin 1.12.0!" above "Gin is a high-performance HTTP web
/// framework written in Go."
fn announces(sentence: &str) -> bool {
    let lower = sentence.to_lowercase().replace('\u{2019}', "'");
    // A label of news (date-fns's "🔥️ **NEW**: date-fns v4.0 with first-class time zone
    // support is out!"), after any emoji.
    let label = lower.trim_start_matches(|c: char| !c.is_alphanumeric());
    if ["new:", "news:", "update:", "announcement:"]
        .iter()
        .any(|l| label.starts_with(l))
        || lower.trim_end_matches(['!', '.']).ends_with(" is out")
    {
        return true;
    }
    [
        "to announce",
        "is now available",
        "are now available",
        "has been released",
        "have been released",
        "we're excited",
        "we are excited",
    ]
    .iter()
    .any(|news| lower.contains(news))
}

/// Whether a quotation (its Markdown, markers and emphasis stripped from its start) is an
/// admonition: `Note:`, `Warning:`, `[!TIP]`, ….
fn is_admonition(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    let label = lower.trim_start_matches("[!");
    // The label ends with a colon, the alert's bracket, or its own emphasis: monolog's
    // `>**Note** This is the documentation for Monolog 3.x` (not "Note that …").
    ["note", "warning", "important", "tip", "caution", "notice"]
        .iter()
        .any(|w| {
            label
                .strip_prefix(w)
                .is_some_and(|rest| rest.starts_with([':', ']', '!', '*', '_']))
        })
}

/// Whether a (left-trimmed) line starts a list item: `- `, `* `, `+ `, or a number followed
/// by `. ` or `) ` (Markdown), or `#. ` (reStructuredText).
fn is_list_item(line: &str) -> bool {
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    let marker = if rest.len() == line.len() {
        line.strip_prefix(['-', '*', '+'])
            .or_else(|| line.strip_prefix("#."))
    } else {
        rest.strip_prefix(['.', ')'])
    };
    marker.is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
}

fn first_sentence(text: &str) -> String {
    let mut end = text.len();
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'!' | b'?')
            && (i + 1 == bytes.len() || bytes[i + 1] == b' ')
            && i > 20
            && !ends_with_abbreviation(&text[..i])
        {
            end = i + 1;
            break;
        }
    }
    let sentence = &text[..end];
    truncate_chars(sentence, 300)
}

/// Whether text ends with an abbreviation whose dot ends no sentence ("e.g", "a.k.a": rubocop's
/// "RuboCop is a Ruby static code analyzer (a.k.a. `linter`) and code formatter."), as a word.
fn ends_with_abbreviation(text: &str) -> bool {
    const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "a.k.a", "vs", "cf", "incl", "approx"];
    ABBREVIATIONS.iter().any(|a| {
        text.len() >= a.len()
            && text.is_char_boundary(text.len() - a.len())
            && text[text.len() - a.len()..].eq_ignore_ascii_case(a)
            && !text[..text.len() - a.len()]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
    })
}

/// Cuts text to at most `max` characters on a word boundary, marking the cut with `…`.
pub fn truncate_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => &cut,
    };
    format!("{cut}…")
}

/// Removes Markdown inline markup: images (inline and reference style), link syntax,
/// emphasis, code ticks, HTML tags, the backslashes of escapes.
fn strip_inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let brackets = closers(&chars, '[', ']');
    let parens = closers(&chars, '(', ')');
    // Skips a link target `(url)` or reference `[ref]` starting at `at`, if there is one.
    let skip_target = |at: usize| match chars.get(at) {
        Some('(') => parens[at] + 1,
        Some('[') => brackets[at] + 1,
        _ => at,
    };
    let mut out = String::with_capacity(text.len());
    // The `]` of each link label being read, innermost last: a label's text is read in this
    // same loop, never by recursion (a line of 50,000 `[` would overflow the stack).
    let mut label_ends: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        while label_ends.last().is_some_and(|&end| end < i) {
            label_ends.pop();
        }
        if label_ends.last() == Some(&i) {
            label_ends.pop();
            i = skip_target(i + 1);
            continue;
        }
        let c = chars[i];
        match c {
            '!' if chars.get(i + 1) == Some(&'[') => {
                // An image, dropped entirely with its target.
                i = skip_target(brackets[i + 1] + 1);
            }
            '[' => {
                if brackets[i] < chars.len() {
                    label_ends.push(brackets[i]);
                }
                i += 1;
            }
            // An HTML tag starts with a letter, `/` or `!` right after `<`; `Vec<T>` is text.
            '<' if chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == '/' || *n == '!')
                && (i == 0 || !chars[i - 1].is_alphanumeric()) =>
            {
                while i < chars.len() && chars[i] != '>' {
                    i += 1;
                }
                i += 1;
            }
            // A code span is read as written: `$_ENV`, `__init__` and `*ptr` keep their
            // underscores and stars (monolog's and phpdotenv's purpose lost them).
            '`' => match code_span_end(&chars, i) {
                Some((start, end, after)) => {
                    out.extend(&chars[start..end]);
                    i = after;
                }
                // Backticks that open nothing are dropped, the whole run at once (a line of
                // backticks would otherwise be scanned once per backtick).
                None => i += chars[i..].iter().take_while(|&&c| c == '`').count(),
            },
            // A backslash escape is the character it escapes, never markup (anyhow's
            // `¯\\\_(°ペ)\_/¯` read `¯\\\(°ペ)\/¯`).
            '\\' if chars.get(i + 1).is_some_and(char::is_ascii_punctuation) => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '*' => i += 1,
            // `_` is emphasis only at a word edge; inside `max_tokens` it is part of the name.
            '_' if i == 0
                || i + 1 == chars.len()
                || !chars[i - 1].is_alphanumeric()
                || !chars[i + 1].is_alphanumeric() =>
            {
                i += 1
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    decode_entities(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The code span whose opening backticks start at `at`: where its text starts and ends, and
/// the index after its closing backticks (a run as long as the opening one). `None` when no
/// run closes it: the backticks are then markup of nothing.
fn code_span_end(chars: &[char], at: usize) -> Option<(usize, usize, usize)> {
    let run = |from: usize| chars[from..].iter().take_while(|&&c| c == '`').count();
    let open = run(at);
    let start = at + open;
    let mut i = start;
    while i < chars.len() {
        if chars[i] == '`' {
            let n = run(i);
            if n == open {
                return Some((start, i, i + n));
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// Longest character reference read (`&thinsp;`, `&#x1F600;`).
const MAX_ENTITY: usize = 10;

/// Replaces HTML character references with their characters: serde's title is `Serde &emsp;`,
/// serilog's `Serilog&nbsp;` (before its badges). Spaces of any width become a plain space;
/// a name this does not know stays as written.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest
            .get(1..)
            .and_then(|r| {
                r.find(';')
                    .filter(|&end| end <= MAX_ENTITY)
                    .map(|end| &r[..end])
            })
            .and_then(|name| entity(name).map(|c| (c, name.len() + 2)));
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character of one reference's name (between `&` and `;`).
fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        // A space of any width, and nothing that is no character (or a control one).
        return match char::from_u32(code)? {
            c if c.is_whitespace() => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        };
    }
    Some(match name {
        "nbsp" | "ensp" | "emsp" | "thinsp" => ' ',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "mdash" => '—',
        "ndash" => '–',
        "hellip" => '…',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "middot" => '·',
        _ => return None,
    })
}

/// Tells whether a line is a Markdown link reference definition (`[id]: https://…`).
fn is_link_definition(line: &str) -> bool {
    line.starts_with('[') && line.find("]:").is_some_and(|i| !line[1..i].contains('['))
}

/// For every `open` in `chars`, the index of the `close` that closes it (nesting counted), or
/// `chars.len()` when none does; in one pass, so that a line of many unclosed brackets costs
/// no more than its length. Other positions hold `chars.len()`.
fn closers(chars: &[char], open: char, close: char) -> Vec<usize> {
    let mut closing = vec![chars.len(); chars.len()];
    let mut opened = Vec::new();
    for (j, &c) in chars.iter().enumerate() {
        if c == open {
            opened.push(j);
        } else if c == close {
            if let Some(o) = opened.pop() {
                closing[o] = j;
            }
        }
    }
    closing
}

fn collect_links(line: &str, links: &mut Vec<String>) {
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        push_link(after[..end].split_whitespace().next().unwrap_or(""), links);
        rest = &after[end..];
    }
}

/// The target of a link definition line (`[label]: <target> "title"`).
fn definition_target(line: &str) -> Option<&str> {
    let after = line[line.find("]:")? + 2..].trim_start();
    match after.strip_prefix('<') {
        Some(bracketed) => bracketed.split_once('>').map(|(t, _)| t),
        None => after.split_whitespace().next(),
    }
}

fn push_link(target: &str, links: &mut Vec<String>) {
    if !target.is_empty() && links.len() < MAX_LINKS && !links.iter().any(|l| l == target) {
        links.push(target.to_owned());
    }
}

impl Heading {
    /// Returns the GitHub-style anchor slug (derived, so it is not stored).
    pub fn slug(&self) -> String {
        slug(&self.text)
    }
}

/// The GitHub-style anchors of a document's headings, in order: a slug that a heading before
/// took gets `-1`, `-2`, … (koa's `### response.body` and `### response.body=` are
/// `#responsebody` and `#responsebody-1`), so that every section has an id of its own.
pub fn slugs(headings: &[Heading]) -> Vec<String> {
    let mut taken: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    headings
        .iter()
        .map(|h| {
            let base = h.slug();
            let mut slug = base.clone();
            while taken.contains_key(&slug) {
                let n = taken.entry(base.clone()).or_insert(0);
                *n += 1;
                slug = format!("{base}-{n}");
            }
            taken.insert(slug.clone(), 0);
            slug
        })
        .collect()
}

/// Returns the GitHub-style anchor slug of a heading.
pub fn slug(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            s.extend(c.to_lowercase());
        } else if c == ' ' {
            s.push('-');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A license file's text names its license: the common ones by their words, the most
    /// specific first; nothing for a text it does not know.
    #[test]
    fn a_license_text_names_its_spdx_identifier() {
        let cases = [
            ("The MIT License (MIT)\n\nCopyright (c) 2015 X\n\nPermission is hereby granted, free of charge, to any person", Some("MIT")),
            ("Copyright 2020 X\n\nPermission is hereby granted, free of charge,\nto any person obtaining a copy", Some("MIT")),
            ("\n                                 Apache License\n                           Version 2.0, January 2004\n", Some("Apache-2.0")),
            ("BSD 3-Clause License\n\nRedistribution and use in source and binary forms, with or without\nmodification, are permitted ... 3. Neither the name of the copyright holder", Some("BSD-3-Clause")),
            ("Redistribution and use in source and binary forms, with or without modification, are permitted provided that", Some("BSD-2-Clause")),
            ("                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n", Some("GPL-3.0")),
            ("                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n", Some("GPL-2.0")),
            ("                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n\n Preamble ... (Some other Free Software Foundation software is covered by\nthe GNU Lesser General Public License instead.)", Some("GPL-2.0")),
            ("                  GNU LIBRARY GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n ... GNU General Public License", Some("LGPL-2.0")),
            ("                   GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n ... GNU General Public License", Some("LGPL-3.0")),
            ("Mozilla Public License Version 2.0\n==================================\n", Some("MPL-2.0")),
            ("Boost Software License - Version 1.0 - August 17th, 2003\n\nPermission is hereby granted, free of charge, to any person or organization", Some("BSL-1.0")),
            ("This is free and unencumbered software released into the public domain.\n", Some("Unlicense")),
            ("ISC License\n\nCopyright (c) X\n\nPermission to use, copy, modify, and/or distribute this software for any purpose", Some("ISC")),
            ("All rights reserved. Do not copy.\n", None),
        ];
        for (text, id) in cases {
            assert_eq!(spdx(text), id, "{text}");
        }
        let facts = analyze(b"LICENSE", None, cases[0].0).expect("a license file is a document");
        assert_eq!(facts.license.as_deref(), Some("MIT"));
        assert_eq!(
            analyze(b"README.md", Some("Markdown"), cases[0].0).and_then(|d| d.license),
            None
        );
    }

    /// The purpose a document of `language` at `path` gives.
    fn purpose_of(path: &[u8], language: &str, text: &str) -> Option<String> {
        analyze(path, Some(language), text).and_then(|f| f.purpose)
    }

    #[test]
    fn code_names_come_from_code_spans_and_fenced_blocks_only() {
        let text = "# Tool\n\nCall `cobra.OnInitialize(initConfig)` or ``ExactArgs``; Execute is prose.\n\n```go\nrootCmd.AddCommand(versionCmd)\nx := 1\n```\n\nAnd `id` is short.\n";
        let facts = analyze(b"README.md", Some("Markdown"), text).unwrap();
        assert_eq!(
            facts.code_names,
            [
                "AddCommand",
                "ExactArgs",
                "OnInitialize",
                "cobra",
                "initConfig",
                "rootCmd",
                "versionCmd"
            ]
        );
        let many: String = (0..MAX_CODE_NAMES + 50)
            .map(|i| format!("`name_{i}`\n"))
            .collect();
        let facts = analyze(b"doc.md", Some("Markdown"), &many).unwrap();
        assert_eq!(facts.code_names.len(), MAX_CODE_NAMES);
        assert!(facts.code_names.contains(&"name_0".to_owned()));
    }

    /// An indented line is code even when it looks like a heading: git's `INSTALL` shows a
    /// root prompt (`\t# make ... install`), which was the document's title.
    #[test]
    fn an_indented_line_is_never_a_heading() {
        let text = "\t\tGit installation\n\nNormally you can just do make.\n\n\t$ make all\n\t# make install ;# as root\n    # four spaces\n   # Three spaces\n\n    Indented\n    --------\n";
        let f = analyze(b"INSTALL", Some("Text"), text).unwrap();
        let h: Vec<_> = f
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str()))
            .collect();
        assert_eq!(h, [(1, "Three spaces")]);
        // Below the first sentence: a section's heading, not the title.
        assert_eq!(f.title, None);
        assert_eq!(indentation("\t x"), 5);
        assert_eq!(indentation("  \tx"), 4);
    }

    #[test]
    fn outlines_markdown_and_finds_purpose() {
        let md = "# RepoCue\n\n[![ci](https://x/badge.svg)](https://x)\n\nRepoCue reads a *Git* repository once and serves [cues](docs/cues.md). More text.\n\n## Quick start\n```\n# not a heading\n```\nSetup\n-----\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(f.title.as_deref(), Some("RepoCue"));
        assert_eq!(
            f.purpose.as_deref(),
            Some("RepoCue reads a Git repository once and serves cues.")
        );
        let h: Vec<_> = f
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(
            h,
            vec![(1, "RepoCue", 1), (2, "Quick start", 7), (2, "Setup", 11)]
        );
        assert_eq!(
            f.links,
            vec!["https://x/badge.svg", "https://x", "docs/cues.md"]
        );
        assert_eq!(f.headings[1].slug(), "quick-start");
    }

    #[test]
    fn skips_reference_style_badges() {
        let md = "# tldr\n\n[![Build][ci-image]][ci-url]\n[![Chat][chat-image]][chat-url]\n\n[ci-url]: https://example.org/ci\n[ci-image]: https://example.org/ci.svg\n\nA collection of community-maintained help pages for command-line tools.\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("A collection of community-maintained help pages for command-line tools.")
        );
        // Link definitions are links too (git's README: `[INSTALL][]` ... `[INSTALL]: INSTALL`).
        assert_eq!(
            f.links,
            vec!["https://example.org/ci", "https://example.org/ci.svg"]
        );
        let md = "Read [INSTALL][].\n\n[INSTALL]: INSTALL\n[guide]: <docs/a guide.md> \"Guide\"\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(f.links, vec!["INSTALL", "docs/a guide.md"]);
    }

    /// A sentence about the README itself, or HTML that keeps its markup, is no purpose; the
    /// next paragraph is.
    #[test]
    fn a_sentence_about_the_document_itself_is_not_the_purpose() {
        let purpose = |md: &str| analyze(b"README.md", Some("Markdown"), md).unwrap().purpose;
        let md = "This README is just a fast *quick start* document. See the site.\n\nWhat is Store?\n---\n\nStore is a data structures server with a simple protocol.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Store is a data structures server with a simple protocol.")
        );
        // Nor is HTML whose text keeps markup; HTML around a plain sentence is a purpose.
        let md = "<p align=\"center\">\n  The compiler for writing next generation code.\n</p>\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("The compiler for writing next generation code.")
        );
        let md = "<p align=\"center\">Visit <a href=\"https://store.io\">store.io</a> for the full documentation.</p>\n\nStore, a small project, is a data structures server.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Store, a small project, is a data structures server.")
        );
        // An HTML paragraph is one without blank lines around it.
        let md = "<div align=\"center\">\n<picture><img src=\"logo.svg\"/></picture>\n</div>\n<p align=\"center\">Promise based HTTP client for the browser and node.js</p>\n<p align=\"center\">\n  <a href=\"https://x.io/\"><b>Website</b></a> •\n  <a href=\"https://x.io/docs\"><b>Documentation</b></a>\n</p>\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Promise based HTTP client for the browser and node.js")
        );
        // Nor is HTML whose text is links and fine print (a sponsor block).
        let md = "<div align=\"center\">\n\t<p>\n\t\t<sup>\n\t\t\tThe author's open source work is supported by the community.<br>Special thanks to:\n\t\t</sup>\n\t\t<a href=\"https://sponsor.example?utm_source=x\">\n\t\t\t<b>Get the most out of every conversation.</b>\n\t\t</a>\n\t</p>\n</div>\n\n> Ky is a tiny and elegant HTTP client based on the [Fetch API](https://example.org/fetch)\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Ky is a tiny and elegant HTTP client based on the Fetch API")
        );
        assert_eq!(
            without_elements("x <abbr>y</abbr> <A href=1>z</a> w", "a"),
            "x <abbr>y</abbr>   w"
        );
        // Nor is the text of an HTML comment (a license header), nor a heading in one.
        let md = "<!---\n Licensed to the Apache Software Foundation (ASF) under one or more\n contributor license agreements.\n\n Unless required by applicable law or agreed to in writing, software\n is distributed on an AS IS basis.\n\n Title\n =====\n-->\n<!-- one line -->\nStore\n=====\n\nStore provides helper utilities for the java.lang API.\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("Store provides helper utilities for the java.lang API.")
        );
        assert_eq!(f.title.as_deref(), Some("Store"));
        // Nor is a quoted admonition; a quoted tagline is a purpose, without its marker.
        let md = "> **Note:** This repository contains the core code of Store.\n\nStore is a web application framework with expressive syntax.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Store is a web application framework with expressive syntax.")
        );
        let md = "> [!WARNING]\n> Store is in beta and may lose your data.\n\nStore is a small key-value database for tests.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Store is a small key-value database for tests.")
        );
        let md = "# Store\n\n> A small key-value database for tests and tools.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("A small key-value database for tests and tools.")
        );
        // "This" about the project is a purpose.
        let md = "# Tool\n\nThis library turns plain logs into searchable events.\n";
        assert!(purpose(md).is_some_and(|p| p.starts_with("This library")));
    }

    /// A row of links is no sentence (rich's row of translations), nor a quotation that opens
    /// with a heading (viper's "> ## Viper v2 Feedback").
    #[test]
    fn a_row_of_links_or_a_quoted_section_is_no_purpose() {
        let rich = "# Rich\n\n[English readme](https://x/README.md)\n • [简体中文 readme](https://x/README.cn.md)\n • [Deutsche readme](https://x/README.de.md)\n\nRich is a Python library for rich text and beautiful formatting in the terminal.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", rich).as_deref(),
            Some(
                "Rich is a Python library for rich text and beautiful formatting in the terminal."
            )
        );
        let viper = "> ## Viper v2 Feedback\n>\n> Viper is heading towards v2 and we would love to hear what you would like.\n\n**Go configuration with fangs!**\n\nViper is a complete configuration solution for Go applications.\n";
        let f = analyze(b"README.md", Some("Markdown"), viper).unwrap();
        assert_ne!(
            f.purpose.as_deref(),
            Some("## Viper v2 Feedback   Viper is heading towards v2 and we would love to hear what you would like.")
        );
        assert!(
            !f.purpose
                .as_deref()
                .unwrap_or_default()
                .contains("Feedback"),
            "{f:?}"
        );
        assert!(is_link_row("[a](x) | [b](y) | [c][z]"));
        assert!(!is_link_row("See [the guide](x) and [the FAQ](y) first."));
        assert!(!is_link_row("[only one](x)"));
    }

    /// reStructuredText's explicit markup (scrapy's README opens with substitution
    /// definitions of its logo and badges), an admonition whose label is emphasised
    /// (monolog's `>**Note** This is …`) and a label before an address (Dapper's "MyGet
    /// Pre-release feed: https://…", its "Package Purposes:" over a list) are no purpose.
    #[test]
    fn markup_admonitions_and_labelled_addresses_are_no_purpose() {
        let scrapy = "|logo|\n\n.. |logo| image:: https://example.org/docs/_static/logo.svg\n   :target: https://scrapy.org\n   :alt: Scrapy\n   :width: 480px\n\nScrapy_ is a web scraping framework to extract structured data from websites.\nIt is cross-platform.\n\n.. _Scrapy: https://scrapy.org/\n";
        assert_eq!(
            purpose_of(b"README.rst", "reStructuredText", scrapy).as_deref(),
            Some("Scrapy is a web scraping framework to extract structured data from websites.")
        );
        let monolog = "# Monolog - Logging for PHP\n\n>**Note** This is the **documentation for Monolog 3.x**, if you are using older releases\n>see the documentation for Monolog 2.x\n\nMonolog sends your logs to files, sockets, inboxes, databases and various\nweb services.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", monolog).as_deref(),
            Some("Monolog sends your logs to files, sockets, inboxes, databases and various web services.")
        );
        let dapper = "Dapper - a simple object mapper for .Net\n========================================\n\nRelease Notes\n-------------\nLocated at [https://github.com/DapperLib/Dapper/releases](https://github.com/DapperLib/Dapper/releases/)\n\nMyGet Pre-release feed: https://www.myget.org/gallery/dapper\n\nPackage Purposes:\n* Dapper\n  * The core library\n* Dapper.Rainbow\n  * Micro-ORM implemented on Dapper, provides CRUD helpers\n\nFeatures\n--------\nDapper is a NuGet library that you can add in to your project.\n";
        assert_eq!(
            purpose_of(b"Readme.md", "Markdown", dapper).as_deref(),
            Some("Dapper is a NuGet library that you can add in to your project.")
        );
        let commandline = "# Command Line Parser\n\n**Note:** the API surface has changed since v1.9.x and earlier.\n\nThe Command Line Parser Library offers a clean and concise API for manipulating command line arguments.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", commandline).as_deref(),
            Some("The Command Line Parser Library offers a clean and concise API for manipulating command line arguments.")
        );
        // Notes that are sentences stay prose: "Note that …" is no label.
        let plain = "# Tool\n\n> Note that the tool rewrites files in place when asked to.\n";
        let f = analyze(b"README.md", Some("Markdown"), plain).unwrap();
        assert!(f.purpose.is_some(), "{f:?}");
    }

    /// What a section of news says is no purpose: googletest's README opens with
    /// `### Announcements` and "Our documentation is now live on GitHub Pages …"; the
    /// purpose is the first paragraph after that section.
    #[test]
    fn a_section_of_news_is_no_purpose() {
        let text = "# GoogleTest\n\n### Announcements\n\n#### Documentation Updates\n\n\
                    Our documentation is now live on GitHub Pages.\n\n#### Release 1.18.0\n\n\
                    Release 1.18.0 is now available.\n\n\
                    ## Welcome to GoogleTest, Google's C++ test framework!\n\n\
                    GoogleTest is Google's C++ testing and mocking framework.\n";
        let f = analyze(b"README.md", Some("Markdown"), text).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("GoogleTest is Google's C++ testing and mocking framework.")
        );
        assert_eq!(f.title.as_deref(), Some("GoogleTest"));
        assert!(announces_news("Latest News"));
        assert!(announces_news("**What's new**"));
        assert!(!announces_news("Newsletter"));
        assert!(!announces_news("Features"));
    }

    /// A level-1 heading below the document's first sentence heads a section, not the
    /// document: fmt's README opens with its logo and badges, then "{fmt} is an open-source
    /// formatting library …", then `# Features`; koa's has one `# License`, at its end.
    #[test]
    fn a_heading_below_the_first_sentence_is_no_title() {
        let fmt =
            "<img src=\"logo.png\" alt=\"{fmt}\"/>\n\n[![ci](https://x/b.svg)](https://x)\n\n\
                   **{fmt}** is an open-source formatting library providing a fast and safe\n\
                   alternative to C stdio and C++ iostreams.\n\n# Features\n\n* Simple API\n";
        let f = analyze(b"README.md", Some("Markdown"), fmt).unwrap();
        assert!(f.purpose.is_some());
        assert_eq!(f.title, None);
        assert_eq!(f.headings[0].text, "Features");
        let koa = "Expressive HTTP middleware framework for node.js.\n\n## Installation\n\n\
                   Run it.\n\n# License\n\nMIT\n";
        assert_eq!(
            analyze(b"Readme.md", Some("Markdown"), koa).unwrap().title,
            None
        );
        // Above the first sentence, badges and images between: the title.
        let titled = "<img src=\"logo.png\"/>\n\n[![ci](https://x/b.svg)](https://x)\n\n# Koa\n\n\
                      Expressive HTTP middleware framework for node.js.\n";
        let f = analyze(b"README.md", Some("Markdown"), titled).unwrap();
        assert_eq!(f.title.as_deref(), Some("Koa"));
    }

    /// A table of contents or a feature list under the title is no purpose; the first
    /// paragraph of prose after it is. Emphasis (`*fast*`) and numbers in prose are not
    /// list markers.
    #[test]
    fn a_list_is_not_the_purpose() {
        let purpose = |md: &str| analyze(b"README.md", Some("Markdown"), md).unwrap().purpose;
        let md = "# Tool\n\n- [Install](#install)\n- [Usage](#usage)\n- [Frequently asked questions](#faq)\n\n1. First step of many\n2) Second step of many\n\n* Fast, small and portable by design\n\nTool turns plain logs into searchable structured events.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Tool turns plain logs into searchable structured events.")
        );
        let md = "# Tool\n\n*Fast* structured logging for services that never sleep.\n";
        assert_eq!(
            purpose(md).as_deref(),
            Some("Fast structured logging for services that never sleep.")
        );
        let md = "# Tool\n\n2024 was the year this logging library for services began.\n";
        assert!(purpose(md).is_some_and(|p| p.starts_with("2024 was")));
        for (line, item) in [
            ("- a", true),
            ("* a", true),
            ("+ a", true),
            ("12. a", true),
            ("3) a", true),
            ("#. a", true),
            ("-", true),
            ("*emphasis* a", false),
            ("-- a", false),
            ("1.5 a", false),
            ("2024 a", false),
            ("#a", false),
        ] {
            assert_eq!(is_list_item(line), item, "{line:?}");
        }
    }

    /// Brackets nested 100,000 deep, in a heading and in the paragraph the purpose is looked
    /// for in, neither overflow a thread's stack nor take quadratic time; nested links
    /// keep their labels and drop their targets.
    #[test]
    fn deeply_nested_brackets_are_read_without_recursion() {
        let deep = "[".repeat(100_000);
        let md = format!(
            "# Title {deep}\n\n{deep} and then {}\n\nMore prose.\n",
            "]".repeat(99_000)
        );
        let f = analyze(b"README.md", Some("Markdown"), &md).unwrap();
        let headings: Vec<&str> = f.headings.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(headings, ["Title"]);
        assert!(f.purpose.is_none_or(|p| !p.contains('[')));
        let ticks = "`".repeat(100_000);
        assert_eq!(strip_inline(&format!("a {ticks} b")), "a b");
        assert_eq!(
            strip_inline("See [the [nested](a.md) guide](b.md) and ![logo](l.png)[x][ref] end"),
            "See the nested guide and x end"
        );
    }

    /// HTML whose closing tags after words keep markup is still a purpose when, without them,
    /// it defines the project: fiber's centred tagline gave no purpose.
    #[test]
    fn closing_tags_after_words_are_markup() {
        let md = "<h1 align=\"center\">\n  <img alt=\"Fiber\" src=\"logo.svg\">\n</h1>\n\n<p align=\"center\">\n  <em><b>Fiber</b> is an <a href=\"https://github.com/expressjs/express\">Express</a> inspired <b>web framework</b> built on top of Fasthttp.</em>\n</p>\n\nFiber requires Go version 1.25 or higher to run.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", md).as_deref(),
            Some("Fiber is an Express inspired web framework built on top of Fasthttp.")
        );
        // A tagline that only describes stays out (yargs's pirate tagline before its
        // README's own sentence), and so does an HTML heading (composer's).
        let yargs = "<p align=\"center\">\n  <b>Yargs</b> be a node.js library fer hearties tryin' ter parse optstrings\n</p>\n\nYargs helps you build interactive command line tools.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", yargs).as_deref(),
            Some("Yargs helps you build interactive command line tools.")
        );
        let composer = "<p align=\"center\">\n    <a href=\"https://getcomposer.org\">\n        <img src=\"logo.png\" alt=\"Composer\">\n    </a>\n</p>\n<h1 align=\"center\">Dependency Management for PHP</h1>\n\nComposer helps you declare, manage, and install dependencies of PHP projects.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", composer).as_deref(),
            Some("Composer helps you declare, manage, and install dependencies of PHP projects.")
        );
        // An HTML heading on its own line titles the document.
        let zod = "<p align=\"center\">\n  <img src=\"logo.svg\" alt=\"Zod logo\" />\n  <h1 align=\"center\">Zod</h1>\n  <p align=\"center\">\n    TypeScript-first schema validation with static type inference\n  </p>\n</p>\n";
        let f = analyze(b"README.md", Some("Markdown"), zod).unwrap();
        assert_eq!(f.title.as_deref(), Some("Zod"));
        let f = analyze(b"README.md", Some("Markdown"), composer).unwrap();
        assert_eq!(f.title.as_deref(), Some("Dependency Management for PHP"));
        for line in [
            "<h1>Zod",
            "<hr>Zod</h1>",
            "<h1>Zod</h2>",
            "<h1></h1>",
            "<header>Zod</h1>",
        ] {
            assert_eq!(html_heading(line), None, "{line}");
        }
        assert_eq!(
            html_heading("<h2><a href=\"#x\">Usage</a></h2>"),
            Some((2, "Usage".to_owned()))
        );
        assert_eq!(
            without_closing_tags("a Vec<T> of Option<u8></code> and x</ y"),
            "a Vec<T> of Option<u8> and x</ y"
        );
    }

    /// A README whose first paragraph is no definition keeps the defining sentence a few
    /// paragraphs on, for the overview to weigh (fastify's).
    #[test]
    fn a_defining_sentence_after_the_purpose_is_kept() {
        let md = "<div align=\"center\">\n<img src=\"logo.png\">\n</div>\n\nAn efficient server implies a lower cost of the infrastructure, better\nresponsiveness under load, and happy users.\n\nEnter Fastify. Fastify is a web framework highly focused on providing the best\ndeveloper experience. It is inspired by Hapi.\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("An efficient server implies a lower cost of the infrastructure, better responsiveness under load, and happy users.")
        );
        assert_eq!(
            f.definition.as_deref(),
            Some("Fastify is a web framework highly focused on providing the best developer experience.")
        );
        // A purpose that defines the title needs nothing more; a definition far below is not
        // read.
        let md = "# Flask\n\nFlask is a lightweight WSGI web application framework.\n\nRequests is a library too.\n";
        assert_eq!(
            analyze(b"README.md", Some("Markdown"), md)
                .unwrap()
                .definition,
            None
        );
        // One that defines something else than the title does not (okhttp's).
        let md = "OkHttp\n======\n\nHTTP is the way modern applications network.\n\nOkHttp is an HTTP client that is efficient by default:\n";
        assert_eq!(
            analyze(b"README.md", Some("Markdown"), md)
                .unwrap()
                .definition
                .as_deref(),
            Some("OkHttp is an HTTP client that is efficient by default:")
        );
        let far = "# X\n\nIt started as a weekend project a long while ago.\n\nIt grew into something many people use every day.\n\nTwo more paragraphs of prose follow this one.\n\nThen came a third paragraph of prose after it.\n\nXray is a tool for people.\n";
        assert_eq!(
            analyze(b"README.md", Some("Markdown"), far)
                .unwrap()
                .definition,
            None
        );
        // Rows of badges, rules and link lines between are no paragraphs of prose (typer's
        // definition follows its tagline past them).
        let typer = "<p align=\"center\">\n    <em>Typer, build great CLIs. Easy to code.</em>\n</p>\n<p align=\"center\">\n<a href=\"https://ci.example/typer\">\n    <img src=\"https://ci.example/badge.svg\" alt=\"Test\">\n</a>\n</p>\n\n---\n\n**Documentation**: [https://typer.example](https://typer.example)\n\n**Source Code**: [https://github.com/fastapi/typer](https://github.com/fastapi/typer)\n\n---\n\nTyper is a library for building <abbr title=\"command line interface\">CLI</abbr> applications. Based on Python type hints.\n";
        assert_eq!(
            analyze(b"README.md", Some("Markdown"), typer)
                .unwrap()
                .definition
                .as_deref(),
            Some("Typer is a library for building CLI applications.")
        );
        // Nor one under a later heading: another section's subject (pydantic's "Pydantic V2
        // is a ground-up rewrite…" under "Pydantic V1.10 vs. V2").
        let other = "# Pydantic\n\nData validation using Python type hints.\n\n## V1 vs. V2\n\nPydantic V2 is a ground-up rewrite.\n";
        let f = analyze(b"README.md", Some("Markdown"), other).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("Data validation using Python type hints.")
        );
        assert_eq!(f.definition, None);
        // A later section whose heading names what its sentence defines answers for it
        // (viper's tagline "Go configuration with fangs!", its definition under "Why use
        // Viper?" past an install section); a section four headings on does not.
        let viper = "**Go configuration with fangs!**\n\nMany Go projects use it.\n\n## Install\n\n```\ngo get x\n```\n\n## Why use Viper?\n\nViper is a complete configuration solution for Go applications. It works.\n";
        let f = analyze(b"README.md", Some("Markdown"), viper).unwrap();
        assert_eq!(
            f.definition.as_deref(),
            Some("Viper is a complete configuration solution for Go applications.")
        );
        let far = viper.replace(
            "## Why use",
            "## A\n\nx.\n\n## B\n\ny.\n\n## C\n\nz.\n\n## Why use",
        );
        let f = analyze(b"README.md", Some("Markdown"), &far).unwrap();
        assert_eq!(f.definition, None);
        // YAML front matter is no text: its `title:` titles the document, a comment in it is no
        // heading (Prometheus's "todo: internal").
        let md = "---\n# todo: internal\nsort_rank: 1\ntitle: \"Getting started\"\n---\n\nPrometheus scrapes metrics from targets.\n";
        let f = analyze(b"docs/index.md", Some("Markdown"), md).unwrap();
        assert_eq!(f.title.as_deref(), Some("Getting started"));
        assert!(f.headings.is_empty(), "{:?}", f.headings);
        assert_eq!(
            f.purpose.as_deref(),
            Some("Prometheus scrapes metrics from targets.")
        );
        let untitled = "---\nlayout: page\n---\n\n# Install\n\nInstall it with the tool.\n";
        let f = analyze(b"docs/install.md", Some("Markdown"), untitled).unwrap();
        assert_eq!(f.title.as_deref(), Some("Install"));
        // A leading rule with no end is no front matter.
        let rule = "---\n\n# Title\n\nText of it here.\n";
        assert_eq!(
            analyze(b"x.md", Some("Markdown"), rule)
                .unwrap()
                .title
                .as_deref(),
            Some("Title")
        );
        // A sentence that leads to what follows is no purpose: one ending with a colon past
        // the opening section (a tagline too short to be one came first), one naming "the
        // following"; an opening one that ends with a colon stays (crossbeam's).
        let purpose = |md: &str| analyze(b"README.md", Some("Markdown"), md).unwrap().purpose;
        assert_eq!(
            purpose("# Demo\n\nAn async runtime.\n\n## Testing\n\nAll tests need the features enabled:\n\n## Use\n\nDemo runs tasks on a pool of threads.\n").as_deref(),
            Some("Demo runs tasks on a pool of threads.")
        );
        assert_eq!(
            purpose("# Repository\n\nThis repository is home to the following projects.\n\n## Widget Core\n\nWidget Core is a modern object-database mapper for .NET.\n").as_deref(),
            Some("Widget Core is a modern object-database mapper for .NET.")
        );
        assert_eq!(
            purpose("# crossbeam\n\nThis crate provides a set of tools for concurrent programming:\n\n## Atomics\n").as_deref(),
            Some("This crate provides a set of tools for concurrent programming:")
        );
        assert!(defines(
            "curl is a command-line tool for transferring data."
        ));
        assert!(!defines("What it is, is a question of taste."));
        assert!(!defines(
            "The most important thing to know about this project is a secret."
        ));
    }

    #[test]
    fn a_pointer_elsewhere_is_no_purpose() {
        let md = "# Spring PetClinic Sample Application\n\n## Understanding it\n\nSee the presentation here:  \n[Spring Petclinic Sample Application (legacy slides)](https://example.com)\n\n> **Note:** These slides refer to a legacy version.\n\n## Run Petclinic locally\n\nSpring Petclinic is a Spring Boot application built using Maven or Gradle.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", md).as_deref(),
            Some("Spring Petclinic is a Spring Boot application built using Maven or Gradle.")
        );
        // A project named like a pointer's verb defines itself (pallets/click).
        let click = "# Click\n\nClick is a Python package for creating beautiful command line interfaces\nin a composable way with as little code as necessary. It's the \"Command\nLine Interface Creation Kit\".\n\nIt aims to make the process of writing command line tools quick and fun.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", click).as_deref(),
            Some("Click is a Python package for creating beautiful command line interfaces in a composable way with as little code as necessary.")
        );
        assert!(points_elsewhere("Click here to read the documentation."));
    }

    #[test]
    fn news_is_no_purpose() {
        let md = "# Gin\n\n## Gin 1.12 is now available!\n\nWe're excited to announce the release of **Gin 1.12.0**! It brings new features.\n\n---\n\nGin is a high-performance HTTP web framework written in Go.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", md).as_deref(),
            Some("Gin is a high-performance HTTP web framework written in Go.")
        );
        assert!(announces("Version 2 is now available on PyPI."));
        assert!(!announces("A library that parses configuration files."));
        // A label of news, and a release that "is out" (date-fns's README opens with both).
        let date_fns = "🔥️ **NEW**: [date-fns v4.0 with first-class time zone support is out!](https://blog.date-fns.org/v40)\n\n<img alt=\"date-fns\" src=\"logo.svg\" width=\"150\" />\n\ndate-fns provides the most comprehensive, yet simple and consistent toolset for manipulating JavaScript dates\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", date_fns).as_deref(),
            Some("date-fns provides the most comprehensive, yet simple and consistent toolset for manipulating JavaScript dates")
        );
        assert!(announces("Version 3 is out."));
        assert!(announces_news("Special Thanks"));
        assert!(announces_news("## Contributors and Sponsors"));
        assert!(!announces_news("License Checker"));
        assert!(!announces_news("all-contributors"));
        assert!(!announces_news("The"));
        assert!(!announces_news("For"));
        // Donations and paid support (celery's README, in reStructuredText).
        assert!(announces_news("For enterprise"));
        assert!(announces_news("Commercial Support"));
        assert!(!announces_news("Supported platforms"));
        assert!(announces_news("1. BUILDING AND INSTALLATION"));
        assert!(announces_news("⚙️ Installation"));
        assert!(announces_news("2. USEFUL LINKS:"));
        // An instruction above an example (aiohttp's README has no other sentence).
        let aiohttp = "Async http client/server framework\n==================================\n\nClient\n------\n\nTo get something from the web:\n\n.. code-block:: python\n\n  import aiohttp\n";
        assert_eq!(purpose_of(b"README.rst", "reStructuredText", aiohttp), None);
        let literal = "Client\n------\n\n.. code-block:: python\n\n  import aiohttp\n  import asyncio\n\nComing from `requests <https://requests.readthedocs.io/>`_ ? Read `why we need so many lines <https://docs.aiohttp.org/>`_.\n\nExample::\n\n    print(\"hello world, this is a demo\")\n\nThe aiohttp library is an asynchronous HTTP client and server.\n";
        assert_eq!(
            purpose_of(b"README.rst", "reStructuredText", literal).as_deref(),
            Some("The aiohttp library is an asynchronous HTTP client and server.")
        );
        let code = analyze(b"README.rst", Some("reStructuredText"), literal).unwrap();
        assert!(code.code_names.contains(&"aiohttp".to_owned()), "{code:?}");
        assert!(introduces_steps(
            "You can download and install libevent using the vcpkg dependency manager:"
        ));
        assert!(!introduces_steps(
            "This crate provides a set of tools for concurrent programming:"
        ));
        assert!(!introduces_steps(
            "To parse JSON fast is what this library does."
        ));
        assert!(points_elsewhere(
            "For the latest released version of Libevent, see the official website at ."
        ));
        assert!(!points_elsewhere(
            "For parsing arguments, see-saw is a library that helps."
        ));
        assert!(!announces_news("1. Building blocks of a parser"));
        assert!(!announces_news("2024"));
        let libevent = "<p align=\"center\">\n  <img src=\"logo.png\" alt=\"libevent logo\"/>\n</p>\n\n# 1. BUILDING AND INSTALLATION\n\n## CMake (Unix)\n\n```sh\nmake\n```\n\n## Package Managers\n\nYou can download and install libevent using the vcpkg dependency manager:\n";
        assert_eq!(purpose_of(b"README.md", "Markdown", libevent), None);
        let celery = "Celery\n======\n\nDonations\n=========\n\nOpen Collective\n---------------\n\n`Open Collective <https://opencollective.com/celery>`_ is our community-powered funding platform that fuels Celery's\nongoing development.\n\nFor enterprise\n==============\n\nAvailable as part of the Tidelift Subscription.\n\nWhat is it?\n===========\n\nCelery is a simple, flexible, and reliable distributed system.\n";
        assert_eq!(
            purpose_of(b"README.rst", "reStructuredText", celery).as_deref(),
            Some("Celery is a simple, flexible, and reliable distributed system.")
        );
        // A request for money is no purpose, in whatever section it stands (Dear ImGui's).
        let imgui = "Dear ImGui\n=====\n\nBusinesses: support continued development and maintenance via invoiced sponsoring/support contracts:\n<br>&nbsp;&nbsp;_E-mail: contact @ example dot com_\n<br>Individuals: support continued development and maintenance [here](https://example.org/pay).\n\n### The Pitch\n\nDear ImGui is a **bloat-free graphical user interface library for C++**. It outputs optimized vertex buffers.\n";
        assert_eq!(
            purpose_of(b"docs/README.md", "Markdown", imgui).as_deref(),
            Some("Dear ImGui is a bloat-free graphical user interface library for C++.")
        );
        assert!(!asks_for_money(
            "Sponsored tests run on every commit of this continuous integration tool."
        ));
        // An abbreviation's dot ends no sentence (rubocop).
        let rubocop = "# RuboCop\n\nRuboCop is a Ruby static code analyzer (a.k.a. `linter`) and code formatter. Out of the box it will enforce many of the guidelines.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", rubocop).as_deref(),
            Some("RuboCop is a Ruby static code analyzer (a.k.a. linter) and code formatter.")
        );
        assert_eq!(
            first_sentence("Most developers use two of these tools. Devs. often do."),
            "Most developers use two of these tools."
        );
        assert_eq!(
            first_sentence("A sorting library with benchmarks vs. the standard one. More."),
            "A sorting library with benchmarks vs. the standard one."
        );
        // A section thanking sponsors, and a pointer to where questions go (vuejs/core).
        let vue = "# vuejs/core\n\n## Sponsors\n\nVue.js is an MIT-licensed open source project with its ongoing development made possible entirely by the support of these awesome backers.\n\n## Questions\n\nFor questions and support please use the official forum or community chat.\n\n## Contribution\n\nThank you to all the people who already contributed to Vue!\n\n## License\n\nReleased under the MIT License, free for any use at all.\n\n## Intro\n\nVue is a framework for building user interfaces.\n";
        assert_eq!(
            purpose_of(b"README.md", "Markdown", vue).as_deref(),
            Some("Vue is a framework for building user interfaces.")
        );
        assert!(!announces("Newcomers should read the guide first."));
        assert!(!announces("What is out of scope is listed below."));
    }

    #[test]
    fn character_references_read_as_their_characters() {
        let md = "# Serde &emsp; [![Build](b.svg)][ci]\n\n## Tom&amp;Jerry&nbsp;&#x2014; &#169; &bogus; & more&#0;\n";
        let f = analyze(b"README.md", Some("Markdown"), md).unwrap();
        assert_eq!(f.title.as_deref(), Some("Serde"));
        assert_eq!(f.headings[1].text, "Tom&Jerry — © &bogus; & more&#0;");
        assert_eq!(strip_inline("a&nbsp;&nbsp;b &lt;T&gt; &"), "a b <T> &");
    }

    /// A code span is text as written: phpdotenv's purpose named `$_ENV` as `$ENV`.
    #[test]
    fn code_spans_keep_their_underscores_and_stars() {
        assert_eq!(
            strip_inline("Loads `$_ENV`, `__init__` and ``*ptr` `` _now_ and **`a_b`**"),
            "Loads $_ENV, __init__ and *ptr` now and a_b"
        );
        assert_eq!(strip_inline("an `unclosed tick"), "an unclosed tick");
    }

    /// A README's notice that the project is deprecated or unmaintained is found near the
    /// top, under a heading that says so or as a sentence about the project; a deprecated
    /// part of the API, code and text far down are not.
    #[test]
    fn a_project_status_notice_is_found_and_an_apis_deprecation_is_not() {
        let notice = |text: &str| {
            analyze(b"README.md", Some("Markdown"), text)
                .unwrap()
                .notice
        };
        let javapoet = "JavaPoet\n========\n\n`JavaPoet` is a Java API for generating `.java` source files.\n\n\nDeprecated (really)\n----------\n\nAs of 2020-10-10, Square's JavaPoet project is deprecated. We're proud of our work.\n";
        assert_eq!(
            notice(javapoet).as_deref(),
            Some("As of 2020-10-10, Square's JavaPoet project is deprecated.")
        );
        let quoted = "# lib\n\nA parser.\n\n> **Warning** This repository is no longer maintained; use `other` instead.\n";
        assert_eq!(
            notice(quoted).as_deref(),
            Some("Warning This repository is no longer maintained; use other instead.")
        );
        // The project's own name as the subject, a label, a GitHub alert (logrus's wording).
        let named = "# Logrus <img src=\"x.png\"/>\n\nLogrus is a structured logger.\n\n**Logrus is in maintenance mode.** New features are not planned.\n";
        assert_eq!(
            notice(named).as_deref(),
            Some("Logrus is in maintenance mode.")
        );
        let versioned = "# JUnit 4\nJUnit is a framework.\n\n> [!IMPORTANT]\n> **JUnit 4 is in maintenance mode.**\n";
        assert_eq!(
            notice(versioned).as_deref(),
            Some("JUnit 4 is in maintenance mode.")
        );
        let label = "# lg\n\nA logger.\n\nDEPRECATED: use zap.\n";
        assert_eq!(notice(label).as_deref(), Some("DEPRECATED: use zap."));
        let alert = "# lg\n\nA logger.\n\n> [!WARNING]\n> This repository is archived.\n";
        assert_eq!(
            notice(alert).as_deref(),
            Some("This repository is archived.")
        );
        // A default branch ahead of the release (axum's wording).
        let ahead = "# p\n\n`p` is an HTTP routing library.\n\n## ⚠ Breaking changes ⚠\n\nWe are currently working towards p 0.9 so the `main` branch contains breaking\nchanges. See the [`0.8.x`] branch for what's released to crates.io.\n\n## Usage\n\nCall `f`.\n";
        assert_eq!(
            notice(ahead).as_deref(),
            Some("We are currently working towards p 0.9 so the main branch contains breaking changes.")
        );
        let semver = "# p\n\nA library.\n\n## Versioning\n\nThis project follows semver: breaking changes bump the major version.\n";
        assert_eq!(notice(semver), None, "a versioning policy");
        let other = "# lg\n\nA logger.\n\nZap is deprecated in favour of lg.\n";
        assert_eq!(notice(other), None, "another project's status");
        let api = "# lib\n\nA parser.\n\n## Options\n\nThe `strict` option is deprecated since 2.0.\n\n```\n# this project is deprecated\n```\n";
        assert_eq!(notice(api), None);
        let far = format!(
            "# lib\n\nA parser.\n{}\nThis project is deprecated.\n",
            "\ntext\n".repeat(60)
        );
        assert_eq!(notice(&far), None);
    }

    /// Past the opening section an instruction is no purpose: Newtonsoft.Json's root README
    /// is badges and links, and a later "## Patching" section's "Use JsonPatch.Apply to patch
    /// documents." became its purpose. In the opening, the first sentence stays whatever it is.
    #[test]
    fn an_instruction_past_the_opening_is_no_purpose() {
        let purpose = |md: &str| analyze(b"README.md", Some("Markdown"), md).unwrap().purpose;
        let late = "# Lib\n\n[![NuGet](https://x/badge.svg)](https://x)\n\n## Patching\n\nUse JsonPatch.Apply to patch documents.\n\n## Design\n\nThe library keeps documents immutable while patching them.\n";
        assert_eq!(
            purpose(late).as_deref(),
            Some("The library keeps documents immutable while patching them.")
        );
        let opening = "# Tool\n\nUse it to format every file of a project at once.\n";
        assert_eq!(
            purpose(opening).as_deref(),
            Some("Use it to format every file of a project at once.")
        );
    }

    /// RDoc's labelled list of addresses before the description is no purpose (rake's
    /// README read "home :: https://github.com/ruby/rake bugs :: …").
    #[test]
    fn an_rdoc_labelled_list_of_addresses_is_no_purpose() {
        let rdoc = "= RAKE -- Ruby Make\n\nhome :: https://github.com/ruby/rake\nbugs :: https://github.com/ruby/rake/issues\ndocs :: https://ruby.github.io/rake\n\n== Description\n\nRake is a Make-like program implemented in Ruby.\n";
        let f = analyze(b"README.rdoc", Some("RDoc"), rdoc).unwrap();
        assert_eq!(
            f.purpose.as_deref(),
            Some("Rake is a Make-like program implemented in Ruby.")
        );
    }

    /// A backslash escape reads as the character it escapes; a backslash before anything
    /// else is text.
    #[test]
    fn backslash_escapes_read_as_the_character_they_escape() {
        assert_eq!(
            strip_inline("Anyhow ¯\\\\\\_(°ペ)\\_/¯, `a\\_b`, foo\\_bar, 2 \\* 3, C:\\dir"),
            "Anyhow ¯\\_(°ペ)_/¯, a\\_b, foo_bar, 2 * 3, C:\\dir"
        );
    }

    #[test]
    fn outlines_rst_underlines() {
        let rst =
            "Project\n=======\n\nA library that does useful things for people.\n\nUsage\n-----\n";
        let f = analyze(b"README.rst", Some("reStructuredText"), rst).unwrap();
        assert_eq!(f.title.as_deref(), Some("Project"));
        assert_eq!(f.headings.len(), 2);
        // An overlined title, whatever its character, comes before an underlined section of
        // `=` (marshmallow's `AUTHORS.rst` was titled "Leads").
        let overlined = "*******\nAuthors\n*******\n\nLeads\n=====\n\n- Someone\n";
        let f = analyze(b"AUTHORS.rst", Some("reStructuredText"), overlined).unwrap();
        assert_eq!(f.title.as_deref(), Some("Authors"));
    }

    /// Property tests of the outline parser. 256 cases each (proptest's default); set
    /// `PROPTEST_CASES` to run more.
    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// A block of a generated Markdown document.
        #[derive(Debug, Clone)]
        enum Block {
            /// `#`-style heading: level and words.
            Atx(u8, Vec<String>),
            /// Setext heading: `=` (level 1) or `-` (level 2) underline.
            Setext(u8, Vec<String>),
            /// A paragraph of words.
            Paragraph(Vec<String>),
            /// A fenced code block whose lines look like headings.
            Fence(Vec<String>),
        }

        fn words() -> impl Strategy<Value = Vec<String>> {
            prop::collection::vec("[A-Za-z0-9][A-Za-z0-9]{0,8}", 1..5)
        }

        fn block() -> impl Strategy<Value = Block> {
            prop_oneof![
                (1..=6u8, words()).prop_map(|(l, w)| Block::Atx(l, w)),
                (1..=2u8, words()).prop_map(|(l, w)| Block::Setext(l, w)),
                words().prop_map(Block::Paragraph),
                words().prop_map(Block::Fence),
            ]
        }

        /// Renders blocks (separated by blank lines) and the headings they hold: level,
        /// text, 1-based line.
        fn render(blocks: &[Block]) -> (String, Vec<(u8, String, u32)>) {
            let mut lines: Vec<String> = Vec::new();
            let mut headings = Vec::new();
            for b in blocks {
                let at = lines.len() as u32 + 1;
                match b {
                    Block::Atx(level, w) => {
                        lines.push(format!("{} {}", "#".repeat(*level as usize), w.join(" ")));
                        headings.push((*level, w.join(" "), at));
                    }
                    Block::Setext(level, w) => {
                        let text = w.join(" ");
                        let mark = if *level == 1 { "=" } else { "-" };
                        lines.push(text.clone());
                        lines.push(mark.repeat(text.len().max(3)));
                        headings.push((*level, text, at));
                    }
                    Block::Paragraph(w) => lines.push(w.join(" ")),
                    Block::Fence(w) => {
                        lines.push("```".into());
                        lines.push(format!("# {}", w.join(" ")));
                        lines.push("```".into());
                    }
                }
                lines.push(String::new());
            }
            (lines.join("\n"), headings)
        }

        proptest! {
            /// Any text, in any of the document formats: an outline, never a panic; headings
            /// are never empty and their lines exist.
            #[test]
            fn never_panics(
                text in "(?s).{0,400}",
                (path, language) in prop::sample::select(vec![
                    ("README.md", "Markdown"),
                    ("doc.rst", "reStructuredText"),
                    ("a.adoc", "AsciiDoc"),
                    ("notes.txt", "Text"),
                ]),
            ) {
                let f = analyze(path.as_bytes(), Some(language), &text).expect("a document");
                let lines = text.lines().count() as u32;
                for h in &f.headings {
                    prop_assert!(!h.text.is_empty());
                    prop_assert!((1..=6).contains(&h.level));
                    prop_assert!(h.line >= 1 && h.line <= lines, "{:?} of {} lines", h, lines);
                }
                prop_assert!(f.headings.len() <= MAX_HEADINGS && f.links.len() <= MAX_LINKS);
            }

            /// Markdown-ish noise (markup characters, brackets, fences) never panics either.
            #[test]
            fn markup_noise_never_panics(
                pieces in prop::collection::vec(
                    prop::sample::select(vec![
                        "#", "# ", "=", "===", "---", "\n", " ", "[", "]", "(", ")", "![", "](",
                        "`", "```", "*", "_", "<", ">", "</a>", "<b", "é", "x", "ab", ":", "|",
                    ]),
                    0..80,
                ),
            ) {
                let text = pieces.concat();
                let _ = analyze(b"README.md", Some("Markdown"), &text);
            }

            /// The headings of a generated document are found, in order, with their levels
            /// and lines; headings inside code fences are not; the title is the first level-1
            /// heading when no paragraph comes before it, and at most that one otherwise (a
            /// paragraph that reads as the purpose leaves the document untitled).
            #[test]
            fn generated_headings_are_extracted(blocks in prop::collection::vec(block(), 0..30)) {
                let (text, expected) = render(&blocks);
                let f = analyze(b"README.md", Some("Markdown"), &text).expect("a document");
                let got: Vec<(u8, String, u32)> =
                    f.headings.iter().map(|h| (h.level, h.text.clone(), h.line)).collect();
                prop_assert_eq!(&got, &expected, "{}", text);
                let title = expected.iter().find(|h| h.0 == 1).map(|h| h.1.clone());
                let first = blocks.iter().position(|b| {
                    matches!(b, Block::Atx(1, _) | Block::Setext(1, _))
                });
                let prose_before = first
                    .is_some_and(|i| blocks[..i].iter().any(|b| matches!(b, Block::Paragraph(_))));
                if prose_before {
                    prop_assert!(f.title.is_none() || f.title == title, "{}", text);
                } else {
                    prop_assert_eq!(f.title, title);
                }
            }
        }
    }
}
