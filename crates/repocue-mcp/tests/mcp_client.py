#!/usr/bin/env python3
"""End-to-end check of the RepoCue MCP server with the official MCP Python SDK (PyPI `mcp`).

Launches the server command given after `--` (placeholders `{repo}` and `{cache}` are replaced
by the repository and a fresh temporary cache directory), speaks MCP to it over stdio, prints
one line per check (`ok - ...` / `FAIL - ...`), then `N passed, M failed`, and exits non-zero
on any failure.

    python3 -m venv /tmp/mcpvenv && /tmp/mcpvenv/bin/pip install mcp
    /tmp/mcpvenv/bin/python mcp_client.py -- \
        target/debug/repocue --repository {repo} --cache-dir {cache} serve
    /tmp/mcpvenv/bin/python mcp_client.py -- \
        target/debug/examples/serve --repository {repo} --cache-dir {cache}

Without `--repo DIR` a small temporary Git repository is created (hermetic Git: no global or
system configuration). With `--repo DIR` an existing repository is used; the script then only
adds and finally removes one untracked file in it. `--repeat N` (default 5) sets how many warm
calls of each read-only tool are timed for the measurement lines at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

TOOLS = ["context_get", "context_rebaseline", "context_refresh", "context_search", "context_status", "context_task"]
FRESHNESS = {"current", "dirty-but-indexed", "refresh-needed", "possibly-stale", "uninitialized"}
# -32002 (resource not found) for handshake-era protocol versions, -32602 from 2026-07-28 on.
NOT_FOUND_CODES = {-32002, -32602}
INVALID_PARAMS = -32602
TIMEOUT = 120


class Report:
    """Counts checks and prints one line for each."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.measures: list[tuple[str, int, int, float]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            print(f"ok - {name}" + (f" ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL - {name}: {detail}", flush=True)
        return ok

    def crash(self, name: str, exc: BaseException) -> None:
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        self.check(name, False, detail.replace("\n", " | "))

    def measure(self, label: str, text: str, ms: float) -> None:
        n = len(text.encode())
        self.measures.append((label, math.ceil(n / 4), n, ms))


def git(repo: Path, *args: str) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GIT_") and k not in ("XDG_CONFIG_HOME",)
    }
    env.update(
        GIT_CONFIG_GLOBAL="/dev/null",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test",
        GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="Test",
        GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
        GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
    )
    out = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def make_repo(base: Path) -> Path:
    repo = base / "repo"
    files = {
        "README.md": "# Widget\n\nWidget is a tool that caches repository context for agents.\n",
        "Cargo.toml": '[package]\nname = "widget"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub fn answer() -> u32 {\n    42\n}\n",
        "src/main.rs": "fn main() {\n    println!(\"{}\", widget::answer());\n}\n",
        "docs/guide.md": "# Guide\n\n## Install\n\nRun `cargo install widget`.\n",
    }
    for rel, content in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial")
    return repo


def text_of(result) -> str:
    return result.content[0].text if result.content else ""


class Tools:
    """Calls tools through an SDK session, timing each call and decoding its JSON text."""

    def __init__(self, session, report: Report) -> None:
        self.session = session
        self.report = report

    async def call(self, name: str, args: dict, label: str | None = None):
        started = time.perf_counter()
        result = await self.session.call_tool(name, args)
        ms = (time.perf_counter() - started) * 1000
        text = text_of(result)
        if label:
            self.report.measure(label, text, ms)
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        return result, value, text


async def check_handshake(session: ClientSession, r: Report) -> None:
    init = await session.initialize()
    r.check(
        "initialize: server info",
        init.server_info.name == "repocue" and bool(init.server_info.version),
        f"{init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}",
    )
    r.check(
        "initialize: instructions mention the tools",
        "context_get" in (init.instructions or "") and "freshness" in (init.instructions or ""),
        repr((init.instructions or "")[:80]),
    )
    caps = init.capabilities
    r.check("initialize: tools and resources capabilities", caps.tools is not None and caps.resources is not None)


async def check_tool_list(session, r: Report) -> None:
    listed = await session.list_tools()
    tools = {t.name: t for t in listed.tools}
    r.check("tools/list: the five tools", sorted(tools) == TOOLS, str(sorted(tools)))
    r.check(
        "tools/list: every tool has a description and an object input schema",
        all(t.description and t.input_schema.get("type") == "object" for t in tools.values()),
    )
    get = tools.get("context_get")
    r.check(
        "tools/list: context_get requires view and offers max_tokens",
        get is not None
        and get.input_schema.get("required") == ["view"]
        and "max_tokens" in get.input_schema.get("properties", {}),
    )
    rb = tools.get("context_rebaseline")
    r.check(
        "tools/list: context_rebaseline requires label and reason",
        rb is not None and sorted(rb.input_schema.get("required", [])) == ["label", "reason"],
    )
    desc = get.description if get else ""
    r.check(
        "tools/list: context_get says to start with overview, check freshness, follow more",
        all(w in desc for w in ("overview", "freshness", "more")),
    )


def is_cue(value, kind: str, budget: int) -> tuple[bool, str]:
    if not isinstance(value, dict):
        return False, "not JSON"
    # cue-3 states no estimate unless provenance is asked for: measure the compact JSON.
    est = math.ceil(len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()) / 4)
    ok = (
        value.get("kind") == kind
        and value.get("freshness") in FRESHNESS
        and isinstance(est, int)
        and est <= budget
    )
    return ok, f"kind={value.get('kind')} freshness={value.get('freshness')} tokens={est}/{budget}"


def error_code(value) -> str | None:
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        return value["error"].get("code")
    return None


async def expect_mcp_error(r: Report, name: str, coro, codes: set[int]) -> None:
    try:
        result = await coro
    except MCPError as e:
        r.check(name, e.code in codes, f"code {e.code}: {e.message[:90]}")
        return
    r.check(name, False, f"no error: {str(result)[:120]}")


async def check_tools(session, r: Report, repo: Path, probe: Path) -> dict:
    t = Tools(session, r)
    state: dict = {}

    res, cue, text = await t.call("context_get", {"view": "overview"}, "context_get overview (cold: baseline)")
    ok, detail = is_cue(cue, "overview", 500)
    r.check("context_get overview", ok and not res.is_error, detail)
    res, manifest, _ = await t.call("context_get", {"view": "manifest"}, "context_get manifest")
    state["repo_id"] = ((manifest or {}).get("provenance") or {}).get("repository_id")
    r.check("context_get overview: one line of JSON within the budget", "\n" not in text
            and cue is not None and math.ceil(len(text.encode()) / 4) <= 500)
    res, cue, text = await t.call("context_get", {"view": "overview", "provenance": True})
    stated = ((cue or {}).get("provenance") or {}).get("estimated_tokens")
    r.check("context_get overview with provenance: the exact estimate",
            stated == math.ceil(len(text.encode()) / 4), f"{stated} for {len(text.encode())} bytes")

    res, cue, _ = await t.call("context_get", {"view": "manifest", "max_tokens": 300}, "context_get manifest 300")
    ok, detail = is_cue(cue, "manifest", 300)
    r.check("context_get manifest", ok and not res.is_error, detail)
    first_snapshot = (cue or {}).get("snapshot")

    res, st, _ = await t.call("context_status", {}, "context_status")
    r.check("context_status: current after the baseline", not res.is_error and (st or {}).get("freshness")
            in ("current", "dirty-but-indexed"), f"freshness={(st or {}).get('freshness')}")

    probe.write_text("probe written by mcp_client.py\n")
    res, st, _ = await t.call("context_status", {})
    r.check("context_status: refresh-needed after an edit", (st or {}).get("freshness") == "refresh-needed",
            f"freshness={(st or {}).get('freshness')} reasons={(st or {}).get('reasons')}")

    res, out, _ = await t.call("context_refresh", {}, "context_refresh (after an edit)")
    r.check("context_refresh publishes a snapshot", not res.is_error and (out or {}).get("published") is True
            and (out or {}).get("operation") == "refresh", f"{(out or {}).get('snapshot')} "
            f"from {(out or {}).get('previous_snapshot')}")
    current = (out or {}).get("snapshot")
    state["current"] = current

    res, out, _ = await t.call("context_refresh", {})
    r.check("context_refresh again is a no-op", (out or {}).get("published") is False)

    res, cue, _ = await t.call("context_get", {"view": "delta", "since": first_snapshot, "max_tokens": 800},
                               "context_get delta 800")
    ok, detail = is_cue(cue, "delta", 800)
    content = (cue or {}).get("content", {})
    r.check("context_get delta since the first snapshot", ok and content.get("from") == first_snapshot
            and content.get("to") == current
            and bool(content.get("paths") or content.get("repository")),
            f"{detail} paths={content.get('paths')}")

    res, cue, _ = await t.call("context_search", {"query": "widget"}, "context_search widget")
    ok, detail = is_cue(cue, "search", 500)
    hits = (cue or {}).get("content", {}).get("hits", [])
    r.check("context_search", ok and not res.is_error, f"{detail} hits={len(hits)}")
    res, cue, _ = await t.call("context_search", {"query": "widget", "scope": ["docs"], "max_tokens": 300})
    r.check("context_search with a scope list", not res.is_error
            and (cue or {}).get("content", {}).get("scopes") == ["docs"], str(cue)[:100])
    res, err, _ = await t.call("context_search", {"query": "widget", "scope": "everything"})
    r.check("context_search with an unknown scope is an error", res.is_error
            and error_code(err) == "invalid_argument")

    # Views other engineers are adding: a cue of the right kind, or a JSON error passed through.
    for args in [
        {"view": "structure", "path": "src/"},
        {"view": "entity", "id": "file:src/lib.rs"},
        {"view": "document", "path": "README.md"},
    ]:
        res, value, text = await t.call("context_get", args, f"context_get {args['view']}")
        if res.is_error:
            r.check(f"context_get {args['view']} passes the library's answer through",
                    error_code(value) in ("invalid_argument", "not_found"), text[:100])
        else:
            ok, detail = is_cue(value, args["view"], 500)
            r.check(f"context_get {args['view']}", ok, detail)

    # A `more` entry is a ready-made request: pass it back unchanged.
    res, cue, _ = await t.call("context_get", {"view": "overview", "max_tokens": 250})
    more = (cue or {}).get("more", []) if not res.is_error else []
    if more:
        res, follow, text = await t.call("context_get", more[0])
        r.check("following a `more` entry verbatim", not res.is_error
                and (follow or {}).get("kind") == more[0]["view"], text[:100])
    else:
        r.check("following a `more` entry verbatim", True, "nothing was left out at 250 tokens")

    res, err, _ = await t.call("context_rebaseline", {"reason": "no label"})
    r.check("context_rebaseline without label is an error", res.is_error and error_code(err) == "invalid_argument",
            str(err)[:100])
    res, err, _ = await t.call("context_rebaseline", {"label": " ", "reason": "blank label"})
    r.check("context_rebaseline with a blank label is an error", res.is_error
            and error_code(err) == "invalid_argument")
    res, out, _ = await t.call("context_rebaseline", {"label": "probe:1", "reason": "mcp_client.py"},
                               "context_rebaseline")
    r.check("context_rebaseline starts a new epoch", not res.is_error and (out or {}).get("operation") == "rebaseline"
            and (out or {}).get("epoch") == "epoch-000002", f"{(out or {}).get('epoch')} {(out or {}).get('snapshot')}")
    state["current"] = (out or {}).get("snapshot")

    for args, why in [
        ({"view": "bogus"}, "unknown view"),
        ({"view": "overview", "max_tokens": 20001}, "budget over 20000"),
        ({"view": "overview", "max_tokens": 0}, "zero budget"),
        ({"view": "overview", "max_token": 10}, "misspelt argument"),
        ({}, "missing view"),
    ]:
        res, err, _ = await t.call("context_get", args)
        r.check(f"invalid context_get ({why}) is an isError JSON error",
                res.is_error and error_code(err) == "invalid_argument", str(err)[:90])

    try:
        res = await session.call_tool("context_nonexistent", {})
        r.check("unknown tool is rejected", res.is_error, text_of(res)[:90])
    except MCPError as e:
        r.check("unknown tool is rejected", e.code == INVALID_PARAMS, f"code {e.code}")
    return state


async def check_resources(session, r: Report, state: dict) -> None:
    repo_id, current = state.get("repo_id"), state.get("current")
    listed = await session.list_resources()
    uris = [res.uri for res in listed.resources]
    overview = f"repocue://{repo_id}/overview/current"
    r.check("resources/list: the current overview", [str(u) for u in uris] == [overview], str(uris))
    templates = await session.list_resource_templates()
    names = sorted(t.name for t in templates.resource_templates)
    r.check("resources/templates/list", names == ["delta", "document", "entity", "snapshot"], str(names))

    started = time.perf_counter()
    read = await session.read_resource(overview)
    ms = (time.perf_counter() - started) * 1000
    body = read.contents[0]
    r.measure("resources/read overview/current", body.text, ms)
    ok, detail = is_cue(json.loads(body.text), "overview", 500)
    r.check("resources/read overview/current", ok and body.mime_type == "application/json", detail)

    read = await session.read_resource(f"repocue://{repo_id}/snapshot/{current}")
    r.check("resources/read snapshot/<current>", json.loads(read.contents[0].text).get("kind") == "manifest")
    await expect_mcp_error(r, "resources/read snapshot-000001 (not current) is not found",
                           session.read_resource(f"repocue://{repo_id}/snapshot/snapshot-000001"), NOT_FOUND_CODES)
    await expect_mcp_error(r, "resources/read of another repository is not found",
                           session.read_resource("repocue://repo-000000000000000000000000/overview/current"),
                           NOT_FOUND_CODES)
    await expect_mcp_error(r, "resources/read of a malformed URI is invalid params",
                           session.read_resource("repocue://not-a-repo/overview"), {INVALID_PARAMS})
    await expect_mcp_error(r, "resources/read of an unknown kind is not found",
                           session.read_resource(f"repocue://{repo_id}/checkpoint/x"), NOT_FOUND_CODES)


async def check_survival(session, r: Report) -> None:
    await session.send_ping()
    res = await session.call_tool("context_status", {})
    st = json.loads(text_of(res))
    r.check("server still serves after the bad requests", not res.is_error and st.get("freshness") in FRESHNESS)


async def measure_warm(session, r: Report, state: dict, repeat: int) -> None:
    calls = [
        ("context_get overview", "context_get", {"view": "overview"}),
        ("context_get manifest", "context_get", {"view": "manifest"}),
        ("context_get delta", "context_get", {"view": "delta", "since": "snapshot-000001"}),
        ("context_get overview 2000", "context_get", {"view": "overview", "max_tokens": 2000}),
        ("context_get structure", "context_get", {"view": "structure"}),
        ("context_search widget", "context_search", {"query": "widget"}),
        ("context_status", "context_status", {}),
        ("context_refresh (no-op)", "context_refresh", {}),
    ]
    for label, name, args in calls:
        times, text = [], ""
        for _ in range(repeat):
            started = time.perf_counter()
            res = await session.call_tool(name, args)
            times.append((time.perf_counter() - started) * 1000)
            text = text_of(res)
        r.measure(f"{label} (warm, median of {repeat})", text, statistics.median(times))


async def legacy_session(r: Report, params: StdioServerParameters, repo: Path, probe: Path, repeat: int) -> None:
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(TIMEOUT * 5):
                await check_handshake(session, r)
                await check_tool_list(session, r)
                state = await check_tools(session, r, repo, probe)
                await check_resources(session, r, state)
                await check_survival(session, r)
                if repeat > 0:
                    await measure_warm(session, r, state, repeat)


async def modern_session(r: Report, params: StdioServerParameters) -> None:
    """The SDK's high-level client probes `server/discover` and may speak 2026-07-28."""
    async with Client(params) as client:
        with anyio.fail_after(TIMEOUT):
            version = client.session.protocol_version
            r.check("high-level Client connects", client.session.server_info.name == "repocue",
                    f"protocol {version}")
            res = await client.call_tool("context_get", {"view": "manifest"})
            ok, detail = is_cue(json.loads(text_of(res)), "manifest", 500)
            r.check("high-level Client: context_get manifest", ok, detail)
            res = await client.call_tool("context_get", {"view": "bogus"})
            r.check("high-level Client: invalid view is an isError result", res.is_error)
            listed = await client.list_resources()
            read = await client.read_resource(listed.resources[0].uri)
            r.check("high-level Client: resources/read overview",
                    json.loads(read.contents[0].text).get("kind") == "overview")


def raw_checks(r: Report, cmd: list[str]) -> None:
    """Checks without the SDK: stdin closing before and after initialize, a garbage line."""
    try:
        p = subprocess.run(cmd, input=b"", capture_output=True, timeout=TIMEOUT)
        r.check("stdin closed before initialize: exit 0, nothing on stdout",
                p.returncode == 0 and p.stdout == b"", f"exit {p.returncode}, stderr {p.stderr[:120]!r}")
    except subprocess.TimeoutExpired:
        r.check("stdin closed before initialize: exit 0, nothing on stdout", False, "timed out")

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}
    lines = [
        json.dumps(init),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        "this is not JSON",
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
    ]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert p.stdin and p.stdout
        for line in lines:
            p.stdin.write(line.encode() + b"\n")
        p.stdin.flush()
        answers: dict = {}
        while 3 not in answers:
            line = p.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            answers[msg.get("id")] = msg
        r.check("garbage line and unknown method do not kill the server",
                3 in answers and len(answers[3].get("result", {}).get("tools", [])) == len(TOOLS),
                f"unknown method answered with {answers.get(2, {}).get('error', {}).get('code')}")
        p.stdin.close()
        rest = p.stdout.read()
        code = p.wait(timeout=TIMEOUT)
        stderr = p.stderr.read() if p.stderr else b""
        r.check("stdin closed after initialize: exit 0", code == 0, f"exit {code}, stderr {stderr[:120]!r}")
        r.check("nothing but JSON-RPC on stdout", all(
            json.loads(l).get("jsonrpc") == "2.0" for l in rest.splitlines() if l.strip()))
        r.check("no panic on stderr", b"panicked" not in stderr, stderr[:120].decode(errors="replace"))
    except Exception as e:  # noqa: BLE001 - report and go on
        r.crash("raw stdio checks", e)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, help="an existing Git work tree (default: a temporary one)")
    parser.add_argument("--repeat", type=int, default=5, help="warm calls timed per read-only tool")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...] with {repo}/{cache}")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the server command after --")

    r = Report()
    tmp = Path(tempfile.mkdtemp(prefix="repocue-mcp-client-"))
    probe = None
    try:
        repo = args.repo.resolve() if args.repo else make_repo(tmp)
        probe = repo / f"repocue-mcp-probe-{os.getpid()}.txt"

        def cmd_with(cache: Path) -> list[str]:
            return [c.replace("{repo}", str(repo)).replace("{cache}", str(cache)) for c in command]

        def params(cache: Path) -> StdioServerParameters:
            cmd = cmd_with(cache)
            return StdioServerParameters(command=cmd[0], args=cmd[1:])

        for name, run in [
            ("SDK session (initialize handshake)",
             lambda: anyio.run(legacy_session, r, params(tmp / "cache"), repo, probe, args.repeat)),
            ("SDK high-level Client", lambda: anyio.run(modern_session, r, params(tmp / "cache"))),
            ("raw stdio", lambda: raw_checks(r, cmd_with(tmp / "cache"))),
        ]:
            try:
                run()
            except BaseException as e:  # noqa: BLE001 - one failing phase must not hide the others
                if isinstance(e, KeyboardInterrupt):
                    raise
                r.crash(name, e)
    finally:
        if probe is not None and probe.exists():
            probe.unlink()
        shutil.rmtree(tmp, ignore_errors=True)

    for label, tokens, n, ms in r.measures:
        print(f"measure - {label}: {tokens} tokens ({n} bytes), {ms:.1f} ms")
    print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
