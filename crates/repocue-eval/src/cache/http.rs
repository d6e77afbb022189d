//! The one HTTP exchange of `evaluate-cache run`: exactly one non-streaming POST of frozen
//! bytes, no redirects followed, no retry, a wall-clock limit, and a bounded response body.
//! Every outcome, including transport failures, comes back as a value to be recorded.

use std::io::Read;
use std::time::{Duration, Instant};

use crate::error::{EvalError, Result};

/// The provider endpoint used unless a loopback test endpoint is given.
pub const DEFAULT_ENDPOINT: &str = "https://api.anthropic.com/v1/messages";
/// Largest response body retained.
pub const MAX_RESPONSE_BYTES: u64 = 4 << 20;

/// A validated endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The URL.
    pub url: String,
    /// Whether it is a loopback address (never reached through a proxy).
    pub loopback: bool,
    /// Whether it is plain HTTP (loopback only, behind the hidden test flag).
    pub insecure: bool,
}

/// Validates an endpoint: HTTPS to the provider, or a loopback address (HTTPS, or plain HTTP
/// only with `allow_insecure_loopback`); no credentials, query or fragment.
pub fn endpoint(url: &str, allow_insecure_loopback: bool) -> Result<Endpoint> {
    let bad = |why: &str| EvalError::arg(format!("--endpoint {url:?}: {why}"));
    let (insecure, rest) = match (url.strip_prefix("https://"), url.strip_prefix("http://")) {
        (Some(r), _) => (false, r),
        (None, Some(r)) => (true, r),
        _ => return Err(bad("use an https:// URL")),
    };
    if url.contains(['?', '#']) {
        return Err(bad("a query or fragment is not allowed"));
    }
    let authority = rest.split('/').next().unwrap_or("");
    if authority.contains('@') {
        return Err(bad("credentials in the URL are not allowed"));
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    let loopback = matches!(host, "127.0.0.1" | "localhost" | "::1");
    if !loopback && url != DEFAULT_ENDPOINT {
        return Err(bad(&format!(
            "only {DEFAULT_ENDPOINT} or a loopback test endpoint is accepted"
        )));
    }
    if insecure && !(loopback && allow_insecure_loopback) {
        return Err(bad(
            "plain http is refused; the provider is reached over HTTPS only",
        ));
    }
    Ok(Endpoint {
        url: url.to_owned(),
        loopback,
        insecure,
    })
}

/// What one exchange produced.
#[derive(Debug, Clone, Default)]
pub struct Exchange {
    /// Instant the request started (RFC 3339 UTC).
    pub started_at: String,
    /// Instant the response was read or the exchange failed.
    pub finished_at: String,
    /// Milliseconds between the two.
    pub duration_ms: u64,
    /// Request bytes handed to the client.
    pub request_bytes: u64,
    /// HTTP status, when a response arrived.
    pub status: Option<u16>,
    /// The provider's `request-id` header.
    pub request_id: Option<String>,
    /// The response body, at most [`MAX_RESPONSE_BYTES`].
    pub body: Vec<u8>,
    /// Whether the body was longer than the bound.
    pub truncated: bool,
    /// Transport failure and its message.
    pub failure: Option<(Failure, String)>,
}

/// Why no complete response arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The wall-clock limit passed.
    Timeout,
    /// Connection, TLS or protocol failure.
    Transport,
}

/// Sends one POST with `body` and returns what happened.
pub fn post(
    ep: &Endpoint,
    key: &str,
    api_version: &str,
    body: &[u8],
    timeout: Duration,
) -> Exchange {
    // Loopback test endpoints never go through a proxy; the provider honours the
    // environment's HTTPS proxy like any command-line client.
    let proxy = if ep.loopback {
        None
    } else {
        ureq::Proxy::try_from_env()
    };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .https_only(!ep.insecure)
        .proxy(proxy)
        .user_agent(concat!("repocue/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut out = Exchange {
        started_at: crate::util::now(),
        request_bytes: body.len() as u64,
        ..Exchange::default()
    };
    let clock = Instant::now();
    let sent = agent
        .post(&ep.url)
        .header("x-api-key", key)
        .header("anthropic-version", api_version)
        .header("content-type", "application/json")
        .send(body);
    match sent {
        Ok(mut resp) => {
            out.status = Some(resp.status().as_u16());
            out.request_id = resp
                .headers()
                .get("request-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let mut buf = Vec::new();
            let read = resp
                .body_mut()
                .as_reader()
                .take(MAX_RESPONSE_BYTES + 1)
                .read_to_end(&mut buf);
            if let Err(e) = read {
                out.failure = Some(classify_io(&e));
            }
            out.truncated = buf.len() as u64 > MAX_RESPONSE_BYTES;
            buf.truncate(MAX_RESPONSE_BYTES as usize);
            out.body = buf;
        }
        Err(e) => out.failure = Some(classify(&e)),
    }
    out.duration_ms = clock.elapsed().as_millis() as u64;
    out.finished_at = crate::util::now();
    out
}

fn classify(e: &ureq::Error) -> (Failure, String) {
    match e {
        ureq::Error::Timeout(t) => (
            Failure::Timeout,
            format!("no complete response in time ({t})"),
        ),
        ureq::Error::Io(io) => classify_io(io),
        other => (Failure::Transport, other.to_string()),
    }
}

fn classify_io(e: &std::io::Error) -> (Failure, String) {
    let text = e.to_string();
    if e.kind() == std::io::ErrorKind::TimedOut || text.contains("timeout") {
        (
            Failure::Timeout,
            format!("no complete response in time ({text})"),
        )
    } else {
        (Failure::Transport, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_https_to_the_provider_or_loopback() {
        assert!(!endpoint(DEFAULT_ENDPOINT, false).unwrap().loopback);
        assert!(
            endpoint("https://127.0.0.1:8443/v1/messages", false)
                .unwrap()
                .loopback
        );
        let http = endpoint("http://localhost:9/v1/messages", true).unwrap();
        assert!(http.insecure && http.loopback);
        assert!(
            endpoint("http://[::1]:9/v1/messages", true)
                .unwrap()
                .loopback
        );
        for bad in [
            "http://127.0.0.1:9/v1/messages",
            "http://api.anthropic.com/v1/messages",
            "https://example.com/v1/messages",
            "https://user:pw@127.0.0.1/v1/messages",
            "https://127.0.0.1/v1/messages?x=1",
            "https://127.0.0.1/v1/messages#f",
            "ftp://127.0.0.1/",
            "https://127.0.0.1.evil.example/v1/messages",
        ] {
            assert!(endpoint(bad, false).is_err(), "{bad}");
            if !bad.starts_with("http://127") {
                assert!(endpoint(bad, true).is_err(), "{bad}");
            }
        }
    }
}
