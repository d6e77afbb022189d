//! Deflate primed with a preset dictionary, for content facts: most facts are a few hundred
//! bytes of the same JSON keys, kinds and declaration keywords, which plain deflate cannot
//! refer back to in so short an input. Compressed after the dictionary, a record's repeats of
//! it cost a back-reference each.
//!
//! The stored bytes are only what the compressor emits after the dictionary (which it is made
//! to end on a byte boundary with a sync flush); to read them, the inflater is given the
//! dictionary as a stored block first and its output is cut after it. Reading depends on the
//! dictionary's bytes only, never on how a compressor happened to encode them: [`DICTIONARY`]
//! must never change; a new one takes a new storage tag.

use std::cell::RefCell;

use miniz_oxide::deflate::core::{
    compress_to_output, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::core::{decompress as inflate, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

/// Fragments of facts JSON in the order of how often facts repeat them, the most frequent
/// last (nearest to the data, so the cheapest to refer to): documents and manifests, then
/// code: languages, declaration keywords, visibilities and kinds, then the keys of every
/// symbol. Written for RepoCue's own facts format (see `analyze`), not taken from any corpus.
pub(crate) const DICTIONARY: &str = concat!(
    r#"{"manifest":{"kind":"cargo","name":"","description":"","entry_points":[""],"#,
    r#""commands":[{"command":"cargo build","purpose":"build"},{"command":"make test","#,
    r#""purpose":"test"},{"command":"npm run lint","purpose":"lint"},{"command":"npm install","#,
    r#""purpose":"install"}]}}"#,
    r#"{"doc":{"title":"","headings":[{"level":1,"text":"Introduction","line":1},"#,
    r#"{"level":2,"text":"Installation","line":"#,
    r#"{"level":2,"text":"Usage","line":"#,
    r#"{"level":3,"text":"","line":"#,
    r#"],"links":["https://github.com/","#,
    r#""],"purpose":"This "}}"#,
    r#"{"code":{"language":"Python","symbols":[{"q":"","k":"class","s":"class ","l":1,"e":1},"#,
    r#"{"q":"__init__","k":"method","s":"def __init__(self, ","v":"private"},"#,
    r#""s":"def test_"s":"async def "s":"def "#,
    r#"{"code":{"language":"Ruby","s":"module "s":"def self."#,
    r#"{"code":{"language":"Go","s":"func (s *"s":"type  struct"s":"func New"#,
    r#"{"code":{"language":"Rust","s":"pub struct "s":"pub enum "s":"impl "s":"pub(crate) fn "#,
    r#""s":"pub fn new("s":"fn "s":"pub fn "#,
    r#"{"code":{"language":"Java","s":"public class "s":"private final "s":"public static "#,
    r#""s":"private static "s":"public void "#,
    r#"{"code":{"language":"C","s":"struct "s":"static inline "s":"unsigned int "#,
    r#""s":"const char *"s":"static const "s":"static struct "s":"void "s":"int "#,
    r#""s":"static void "s":"static int "#,
    r#"{"code":{"language":"Shell","imports":["./"],"references":["test_expect_success","#,
    r#""test_done"]}}"#,
    r#"{"code":{"language":"TypeScript","s":"export type "s":"export interface "#,
    r#""s":"export default class "s":"export default function "s":"export const "#,
    r#""s":"export function "s":"async function "s":"constructor("#,
    r#"{"code":{"language":"JavaScript","imports":["./"],"s":"var "s":"const "s":"function "#,
    r#""k":"trait""k":"interface""k":"impl""k":"module""k":"enum""k":"type""k":"struct""#,
    r#""k":"macro""k":"class""k":"constant""k":"variable""k":"field""k":"method""#,
    r#","v":"protected"},,"v":"internal"},,"v":"exported"},,"v":"private"},,"v":"public"},"#,
    r#""]}],"references":[""#,
    r#"{"q":"","k":"function","s":"","l":1,"e":1},"#,
);

/// The zlib compression level (deflate's default).
const LEVEL: i32 = 6;

/// `json` deflated after [`DICTIONARY`]: the bytes that follow the dictionary's.
pub(crate) fn compress(json: &[u8]) -> Vec<u8> {
    thread_local! {
        // Negative window bits: raw deflate, no zlib header. Its tables are large: one per
        // thread, reset for each record.
        static COMPRESSOR: std::cell::RefCell<CompressorOxide> = std::cell::RefCell::new(
            CompressorOxide::new(create_comp_flags_from_zip_params(LEVEL, -15, 0)),
        );
    }
    COMPRESSOR.with_borrow_mut(|c| {
        c.reset();
        let (primed, _) = compress_to_output(c, DICTIONARY.as_bytes(), TDEFLFlush::Sync, |_| true);
        debug_assert_eq!(primed, TDEFLStatus::Okay);
        let mut out = Vec::with_capacity(json.len() / 2 + 16);
        let (done, _) = compress_to_output(c, json, TDEFLFlush::Finish, |b| {
            out.extend_from_slice(b);
            true
        });
        debug_assert_eq!(done, TDEFLStatus::Done);
        out
    })
}

/// What [`compress`] made of some JSON, or `None` for bytes it did not make (or JSON larger
/// than `limit`).
///
/// Reading every file's facts (ranking a repository again) inflates thousands of short
/// records: the inflater's tables, the input (a stored block holding the dictionary, then
/// the record) and the output are kept per thread and reused, so a record costs its decoding
/// and one copy of its JSON, not three allocations and a shift of its output past the
/// dictionary.
pub(crate) fn decompress(stored: &[u8], limit: usize) -> Option<Vec<u8>> {
    /// Above this, a thread's output buffer is given back after use.
    const KEEP_BYTES: usize = 1 << 20;
    thread_local! {
        static INFLATER: RefCell<Inflater> = RefCell::new(Inflater::new());
    }
    let dict_len = DICTIONARY.len();
    let max = dict_len.saturating_add(limit);
    INFLATER.with_borrow_mut(|inf| {
        let Inflater {
            state,
            input,
            output,
        } = inf;
        state.init();
        input.truncate(STORED_HEADER + dict_len);
        input.extend_from_slice(stored);
        // Facts JSON deflates to about a fifth: start near that, grow by doubling.
        let first = dict_len
            .saturating_add(stored.len().saturating_mul(6))
            .clamp(dict_len + 64, max.max(dict_len + 64));
        if output.len() < first {
            output.resize(first, 0);
        }
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let mut rest = &input[..];
        let mut written = 0;
        let result = loop {
            let (status, used, made) = inflate(state, rest, output, written, flags);
            written += made;
            rest = &rest[used.min(rest.len())..];
            match status {
                TINFLStatus::Done if (dict_len..=max).contains(&written) => {
                    break Some(output[dict_len..written].to_vec());
                }
                TINFLStatus::HasMoreOutput if output.len() < max => {
                    let grown = output.len().saturating_mul(2).min(max);
                    output.resize(grown, 0);
                }
                _ => break None,
            }
        };
        if output.len() > KEEP_BYTES {
            *output = Vec::new();
        }
        result
    })
}

/// Bytes of a stored block's header: the block type, then LEN and its complement.
const STORED_HEADER: usize = 5;

/// A thread's inflater: its state, the input (a stored block holding [`DICTIONARY`], then a
/// record) and the output buffer.
struct Inflater {
    state: Box<DecompressorOxide>,
    input: Vec<u8>,
    output: Vec<u8>,
}

impl Inflater {
    fn new() -> Self {
        let dict = DICTIONARY.as_bytes();
        let len = u16::try_from(dict.len()).expect("the dictionary fits one stored block");
        // A stored block that is not the last one: header bits 000, then LEN and its
        // complement.
        let mut input = Vec::with_capacity(STORED_HEADER + dict.len() + 4096);
        input.push(0);
        input.extend_from_slice(&len.to_le_bytes());
        input.extend_from_slice(&(!len).to_le_bytes());
        input.extend_from_slice(dict);
        Inflater {
            state: Box::default(),
            input,
            output: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_compressed_after_the_dictionary_reads_back() {
        let samples = [
            String::new(),
            r#"{"code":{"language":"C","symbols":[{"q":"main","k":"function","s":"int main(void)","l":3,"e":9}]}}"#.to_owned(),
            r#"{"doc":{"title":"Guide","headings":[],"links":[]}}"#.repeat(200),
            // Bytes the dictionary does not know.
            (0..5000u32).map(|i| char::from(b'!' + (i * 7 % 90) as u8)).collect(),
        ];
        for s in &samples {
            let stored = compress(s.as_bytes());
            assert_eq!(
                decompress(&stored, 1 << 20).as_deref(),
                Some(s.as_bytes()),
                "{s:.60}"
            );
        }
    }

    #[test]
    fn the_dictionary_makes_short_facts_shorter() {
        let facts = r#"{"code":{"language":"TypeScript","symbols":[{"q":"parse","k":"function","s":"export function parse(code: string)","l":4,"e":20,"v":"exported"},{"q":"Parser","k":"class","s":"export default class Parser","l":22,"e":90,"v":"exported"},{"q":"Parser.next","k":"method","s":"next()","l":30,"e":40,"v":"public"}],"references":["tokenize","Token"]}}"#;
        let plain = miniz_oxide::deflate::compress_to_vec(facts.as_bytes(), 6).len();
        let primed = compress(facts.as_bytes()).len();
        assert!(primed * 10 < plain * 7, "{primed} vs {plain} bytes");
    }

    #[test]
    fn records_read_one_after_another_never_mix() {
        // The inflater's buffers are reused: a short record after a long one, a refused one
        // between, and a long one again read exactly as written.
        let long = r#"{"code":{"language":"C","symbols":["#.to_owned()
            + &"{\"q\":\"f\"},".repeat(3000)
            + "]}}";
        let short = r#"{"doc":{"title":"T"}}"#;
        for (s, limit) in [
            (long.as_str(), 1 << 20),
            (short, 1 << 20),
            (long.as_str(), 50),
            (short, 1 << 20),
            (long.as_str(), 1 << 20),
        ] {
            let got = decompress(&compress(s.as_bytes()), limit);
            let want = (s.len() <= limit).then(|| s.as_bytes().to_vec());
            assert_eq!(got, want, "{s:.30} with limit {limit}");
        }
    }

    #[test]
    fn broken_or_oversized_input_is_refused() {
        assert_eq!(decompress(&[0xff, 0x00, 0x12], 1 << 20), None);
        let stored = compress("x".repeat(10_000).as_bytes());
        assert_eq!(decompress(&stored, 100), None, "over the limit");
        assert_eq!(
            decompress(&stored[..stored.len() / 2], 1 << 20),
            None,
            "cut short"
        );
    }
}
