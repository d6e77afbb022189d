//! The stdio framing of an MCP session: newline-delimited JSON-RPC 2.0 read with a bounded line
//! length, every line judged before rmcp sees it, and one writer for everything sent.
//!
//! rmcp's own stdio transport leaves a client waiting: it ignores lines that are not JSON, drops
//! lines over 16 MiB without a word, and answers other malformed messages with an error that
//! has no `id`, so the client cannot tell which request failed. JSON-RPC 2.0 wants every
//! request answered, with its id or with `null` when the id cannot be read, and no notification
//! or response answered. This transport gives those answers itself and hands rmcp only messages
//! it decodes. (rmcp stays silent on unparsable input on purpose, against a peer that would
//! echo each error back as more garbage; an MCP client that launched this server is not such a
//! peer, and one error line per bad line cannot multiply.)

use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{
    ClientJsonRpcMessage, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserializer, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex, Notify};
use tokio::task::JoinHandle;

/// Longest line read from the client, without its newline: 16 MiB, as in rmcp's own stdio
/// transport. A longer line is answered with an invalid-request error and the rest of it is
/// read and dropped, never held in memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Capacity the line buffer keeps between lines, so that one large message does not pin up to
/// [`MAX_LINE_BYTES`] for the rest of the session.
const KEPT_LINE_CAPACITY: usize = 1024 * 1024;

/// The session's transport over a byte stream pair (stdin and stdout in `repocue serve`).
///
/// A task reads and judges the lines; rmcp receives the messages it can handle through a
/// channel, and the answers to the others are written by the task through the same writer that
/// rmcp's responses use, one whole line at a time.
pub(crate) struct LineTransport<W> {
    inbound: mpsc::Receiver<ClientJsonRpcMessage>,
    output: Arc<Output<W>>,
    reader: JoinHandle<()>,
}

impl<W: AsyncWrite + Send + Unpin + 'static> LineTransport<W> {
    /// Starts reading `input` (on the current tokio runtime) and writes to `output`.
    pub(crate) fn new<R: AsyncRead + Send + Unpin + 'static>(input: R, output: W) -> Self {
        Self::with_limit(input, output, MAX_LINE_BYTES)
    }

    fn with_limit<R: AsyncRead + Send + Unpin + 'static>(input: R, output: W, max: usize) -> Self {
        let output = Arc::new(Output {
            writer: Mutex::new(Some(output)),
            broken: Notify::new(),
        });
        // The reader waits while rmcp has a message it has not taken: it is never more than a
        // line ahead, so memory stays bounded by a few lines whatever the client sends.
        let (sender, inbound) = mpsc::channel(1);
        let reader = tokio::spawn(read_lines(
            BufReader::new(input),
            Arc::clone(&output),
            sender,
            max,
        ));
        LineTransport {
            inbound,
            output,
            reader,
        }
    }
}

impl<W> Transport<RoleServer> for LineTransport<W>
where
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        message: ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static {
        let output = Arc::clone(&self.output);
        async move {
            match &message {
                // rmcp leaves out the id it cannot read, as MCP 2026-07-28 allows; JSON-RPC 2.0
                // requires the member, `null` then.
                JsonRpcMessage::Error(e) if e.id.is_none() => {
                    output
                        .write_json(&ErrorResponse::new(&Value::Null, &e.error))
                        .await
                }
                _ => output.write_json(&message).await,
            }
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        tokio::select! {
            message = self.inbound.recv() => message,
            // A client that no longer reads the answers is gone: end the session.
            () = self.output.broken.notified() => None,
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        self.reader.abort();
        drop(self.output.writer.lock().await.take());
        Ok(())
    }
}

impl<W> Drop for LineTransport<W> {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// The one writer of a session.
struct Output<W> {
    writer: Mutex<Option<W>>,
    /// Notified once, when a write fails.
    broken: Notify,
}

impl<W: AsyncWrite + Unpin> Output<W> {
    /// Writes `message` as one line of JSON and flushes it. The first failure closes the
    /// output for good and wakes [`LineTransport::receive`], which ends the session.
    async fn write_json<T: Serialize>(&self, message: &T) -> io::Result<()> {
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        let mut writer = self.writer.lock().await;
        let Some(out) = writer.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the output to the MCP client is closed",
            ));
        };
        let written = match out.write_all(&line).await {
            Ok(()) => out.flush().await,
            Err(e) => Err(e),
        };
        if written.is_err() {
            *writer = None;
            self.broken.notify_one();
        }
        written
    }
}

/// A JSON-RPC error response whose `id` is always present.
#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: &'a ErrorData,
}

impl<'a> ErrorResponse<'a> {
    fn new(id: &'a Value, error: &'a ErrorData) -> Self {
        ErrorResponse {
            jsonrpc: "2.0",
            id,
            error,
        }
    }
}

/// Reads lines until the input ends, the output breaks or rmcp stops receiving: hands rmcp
/// the messages it can decode, answers the rest.
async fn read_lines<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    mut input: R,
    output: Arc<Output<W>>,
    inbound: mpsc::Sender<ClientJsonRpcMessage>,
    max: usize,
) {
    let mut line = Vec::new();
    loop {
        let verdict = match read_line(&mut input, &mut line, max).await {
            Ok(Read::Line) => judge(&line),
            Ok(Read::TooLong) => Verdict::Answer(
                leading_id(&line),
                ErrorData::invalid_request(
                    format!("Invalid request: the message is longer than {max} bytes"),
                    None,
                ),
            ),
            Ok(Read::Eof) => return,
            Err(e) => {
                eprintln!("repocue: cannot read from the MCP client: {e}");
                return;
            }
        };
        line.clear();
        line.shrink_to(KEPT_LINE_CAPACITY);
        match verdict {
            Verdict::Pass(message) => {
                if inbound.send(message).await.is_err() {
                    return;
                }
            }
            Verdict::Answer(id, error) => {
                if output
                    .write_json(&ErrorResponse::new(&id, &error))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            Verdict::Ignore(None) => {}
            Verdict::Ignore(Some(why)) => eprintln!("repocue: ignored a message: {why}"),
        }
    }
}

/// What [`read_line`] read.
#[derive(Debug, PartialEq)]
enum Read {
    /// A whole line (the last one may lack its newline).
    Line,
    /// A line longer than the limit; its first bytes are kept.
    TooLong,
    /// The end of the input.
    Eof,
}

/// Reads one line into `line` (empty on entry) without its newline, keeping at most `max`
/// bytes of it: the rest of a longer line is read and dropped.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Read> {
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::Eof,
                (false, false) => Read::Line,
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        let room = max.saturating_sub(line.len());
        too_long |= part.len() > room;
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// What to do with one line from the client.
// One verdict exists at a time, so its size does not matter; boxing would allocate per message.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Verdict {
    /// A message for rmcp.
    Pass(ClientJsonRpcMessage),
    /// An error to answer, with the request's id or `null`.
    Answer(Value, ErrorData),
    /// Nothing to answer: a blank line (`None`), or a malformed notification or response,
    /// which JSON-RPC never answers (why, for stderr).
    Ignore(Option<String>),
}

/// Judges one line: a message rmcp can decode passes, anything else gets the JSON-RPC error
/// it calls for.
fn judge(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // RFC 8259 lets a parser ignore a byte order mark; rmcp's transport does.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Ignore(None);
    }
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => return Verdict::Pass(message),
        Err(e) => e,
    };
    match serde_json::from_slice::<Value>(line) {
        Ok(message) => invalid(message, &error),
        Err(e) => Verdict::Answer(
            Value::Null,
            ErrorData::parse_error(format!("Parse error: {e}"), None),
        ),
    }
}

/// Judges a JSON value that is not a message rmcp can decode (`error` says why not).
fn invalid(message: Value, error: &serde_json::Error) -> Verdict {
    let reject = |id: Value, why: &str| {
        Verdict::Answer(
            id,
            ErrorData::invalid_request(format!("Invalid request: {why}"), None),
        )
    };
    let fields = match message {
        Value::Object(fields) => fields,
        Value::Array(items) if items.is_empty() => return reject(Value::Null, "an empty batch"),
        // MCP dropped JSON-RPC batches in 2025-06-18, and rmcp reads none.
        Value::Array(_) => return reject(Value::Null, "batches are not supported"),
        _ => return reject(Value::Null, "a message must be a JSON object"),
    };
    // The id to answer with: the request's own when it is one JSON-RPC allows.
    let id = match fields.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    let method = fields.get("method");
    if method.is_none() && (fields.contains_key("result") || fields.contains_key("error")) {
        return Verdict::Ignore(Some(format!("a response that cannot be read: {error}")));
    }
    if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return reject(id, "jsonrpc must be \"2.0\"");
    }
    let Some(method) = method else {
        return reject(id, "method is missing");
    };
    let Some(method) = method.as_str() else {
        return reject(id, "method must be a string");
    };
    match fields.get("id") {
        None => {
            return Verdict::Ignore(Some(format!(
                "a notification {method} that cannot be read: {error}"
            )))
        }
        Some(raw) if serde_json::from_value::<RequestId>(raw.clone()).is_err() => {
            return reject(id, "id must be a string or an integer");
        }
        Some(_) => {}
    }
    match fields.get("params") {
        // By-position parameters are valid JSON-RPC; MCP methods take them by name.
        Some(Value::Array(_)) => Verdict::Answer(
            id,
            ErrorData::invalid_params(
                format!("Invalid params for {method}: params must be an object"),
                None,
            ),
        ),
        Some(params) if !params.is_object() && !params.is_null() => {
            reject(id, "params must be an object")
        }
        _ => reject(id, &error.to_string()),
    }
}

/// Returns the id of a message cut at the length limit, when its `id` member comes before the
/// cut and is a string or a number; else `null`.
fn leading_id(prefix: &[u8]) -> Value {
    struct IdSeeker<'a>(&'a mut Value);

    impl<'de> DeserializeSeed<'de> for IdSeeker<'_> {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for IdSeeker<'_> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    let id: Value = map.next_value()?;
                    if id.is_string() || id.is_number() {
                        *self.0 = id;
                    }
                    // Stop here: the rest of the message does not matter (the error this
                    // early return causes is ignored).
                    return Ok(());
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }

    let mut id = Value::Null;
    let mut deserializer = serde_json::Deserializer::from_slice(prefix);
    // The prefix is cut short, so this always fails; the id seen before the cut is kept.
    let _ = IdSeeker(&mut id).deserialize(&mut deserializer);
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ErrorCode;
    use serde_json::json;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    #[track_caller]
    fn answer(line: &[u8]) -> (Value, ErrorCode, String) {
        match judge(line) {
            Verdict::Answer(id, error) => (id, error.code, error.message.into_owned()),
            other => panic!("expected an answer to {line:?}, got {other:?}"),
        }
    }

    #[test]
    fn unparsable_lines_are_parse_errors_without_an_id() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        for line in [
            &b"hello world"[..],
            b"{\"jsonrpc\":\"2.0\", \"id\": 3, \"method\": ",
            b"\xff\xfe{}",
            b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
            b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"} trailing",
            deep.as_bytes(),
        ] {
            let (id, code, message) = answer(line);
            assert_eq!(
                (id, code),
                (Value::Null, ErrorCode::PARSE_ERROR),
                "{line:?}"
            );
            assert!(message.starts_with("Parse error: "), "{message}");
        }
    }

    #[test]
    fn invalid_requests_keep_a_readable_id() {
        for (line, id, code) in [
            (
                json!({"jsonrpc": "1.0", "id": 6, "method": "tools/list"}),
                json!(6),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"id": "six", "method": "tools/list"}),
                json!("six"),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": "x"}),
                json!(7),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1]}),
                json!(7),
                ErrorCode::INVALID_PARAMS,
            ),
            (
                json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}),
                Value::Null,
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
                Value::Null,
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}),
                json!(1.5),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4, "method": 5}),
                json!(4),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "method": 5}),
                Value::Null,
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 3}),
                json!(3),
                ErrorCode::INVALID_REQUEST,
            ),
            (
                json!([{"jsonrpc": "2.0", "id": 9, "method": "ping"}]),
                Value::Null,
                ErrorCode::INVALID_REQUEST,
            ),
            (json!([]), Value::Null, ErrorCode::INVALID_REQUEST),
            (json!(42), Value::Null, ErrorCode::INVALID_REQUEST),
        ] {
            let text = line.to_string();
            let (got_id, got_code, _) = answer(text.as_bytes());
            assert_eq!((got_id, got_code), (id, code), "{text}");
        }
    }

    #[test]
    fn notifications_responses_and_blank_lines_are_never_answered() {
        for line in [
            &b""[..],
            b"  \r",
            br#"{"jsonrpc":"2.0","method":"notifications/foo","params":"x"}"#,
            br#"{"jsonrpc":"2.0","id":5,"result":{},"error":{}}"#,
            br#"{"jsonrpc":"2.0","error":"x"}"#,
        ] {
            assert!(matches!(judge(line), Verdict::Ignore(_)), "{line:?}");
        }
    }

    #[test]
    fn decodable_messages_pass_with_a_bom_or_a_carriage_return() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\r",
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}"#,
        ] {
            assert!(matches!(judge(line), Verdict::Pass(_)), "{line:?}");
        }
    }

    #[test]
    fn the_id_of_a_cut_message_is_recovered_when_it_comes_first() {
        let cut = |s: &str| leading_id(s.as_bytes());
        assert_eq!(
            cut(r#"{"jsonrpc":"2.0","id":12,"params":{"x":"aaa"#),
            json!(12)
        );
        assert_eq!(cut(r#"{"id":"a","params":{"x":"aaa"#), json!("a"));
        assert_eq!(cut(r#"{"params":{"x":"aa"},"id":3,"y":"aaa"#), json!(3));
        assert_eq!(cut(r#"{"params":{"x":"aaa"#), Value::Null);
        assert_eq!(cut(r#"{"id":{"a":1},"params":"aaa"#), Value::Null);
        assert_eq!(cut(r#"["#), Value::Null);
    }

    #[tokio::test]
    async fn lines_are_bounded_and_the_rest_of_a_long_one_is_dropped() {
        let input: &[u8] = b"12345\n123456\n1234567\n\n1234";
        let mut input = tokio::io::BufReader::with_capacity(2, input);
        let mut line = Vec::new();
        let mut reads = Vec::new();
        loop {
            let read = read_line(&mut input, &mut line, 6).await.unwrap();
            if read == Read::Eof {
                break;
            }
            reads.push((read, String::from_utf8(std::mem::take(&mut line)).unwrap()));
        }
        let expected = [
            (Read::Line, "12345"),
            (Read::Line, "123456"),
            (Read::TooLong, "123456"),
            (Read::Line, ""),
            (Read::Line, "1234"),
        ];
        assert_eq!(
            reads,
            expected.map(|(r, s)| (r, s.to_owned())),
            "the last line counts without its newline"
        );
    }

    /// The transport end to end: answers and rmcp's messages on one output, in whole lines.
    #[tokio::test]
    async fn answers_bad_lines_itself_and_passes_good_ones() {
        let (mut client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_in) = tokio::io::duplex(1 << 16);
        let mut transport = LineTransport::with_limit(server_in, server_out, 64);
        let mut answers = tokio::io::BufReader::new(client_in).lines();

        let long = format!(
            r#"{{"jsonrpc":"2.0","id":77,"params":"{}"}}"#,
            "a".repeat(100)
        );
        let lines = [
            "garbage",
            &long,
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ];
        for line in lines {
            client_out.write_all(line.as_bytes()).await.unwrap();
            client_out.write_all(b"\n").await.unwrap();
        }
        let parsed = |line: Option<String>| serde_json::from_str::<Value>(&line.unwrap()).unwrap();
        let first = parsed(answers.next_line().await.unwrap());
        assert_eq!(first["id"], Value::Null);
        assert_eq!(first["error"]["code"], -32700);
        let second = parsed(answers.next_line().await.unwrap());
        assert_eq!(second["id"], 77);
        assert_eq!(second["error"]["code"], -32600);

        let Some(JsonRpcMessage::Request(ping)) = transport.receive().await else {
            panic!("the ping passes")
        };
        assert_eq!(ping.id, RequestId::Number(8));
        let lost = ErrorData::invalid_request("lost", None);
        transport
            .send(JsonRpcMessage::error(lost, None))
            .await
            .unwrap();
        let third = parsed(answers.next_line().await.unwrap());
        assert_eq!(third["id"], Value::Null, "{third}");
        assert!(third.as_object().unwrap().contains_key("id"));

        drop(client_out);
        assert!(transport.receive().await.is_none(), "the input ended");
    }

    /// A client that stops reading the answers ends the session.
    #[tokio::test]
    async fn a_broken_output_ends_the_session() {
        let (_client_input, input) = tokio::io::duplex(64);
        let (output, client_output) = tokio::io::duplex(64);
        drop(client_output);
        let mut transport = LineTransport::new(input, output);
        let answer = JsonRpcMessage::error(ErrorData::invalid_request("x", None), None);
        assert!(transport.send(answer).await.is_err());
        assert!(transport.receive().await.is_none());
    }
}
