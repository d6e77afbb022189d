#!/usr/bin/env python3
"""RepoCue quality harness: fact recall per view, format and budget.

    score.py --bin PATH --work DIR [--source BASE|MIRROR_ROOT] [--repo owner/name ...]
             [--budgets 250,500,1000,2000] [--tokcount PATH | --no-tokcount]

For every repository of repos.toml (cloned at its pinned commit by
checkout.py into DIR/repos) it:
  1. runs `repocue init` once (cache in DIR/cache/<owner>+<name>), later runs refresh;
  2. plays the delta scenario of scenarios.py (a scripted commit), then
     `cue --view delta --since <snapshot before it>` and measures recall of the
     changed paths and symbol operations;
  3. resets to the pinned commit, makes the tree dirty in a scripted way (one
     file modified, one untracked: [worktree] of the fact list), refreshes;
  4. runs every view (overview, manifest, structure, delta, search) in every
     format the binary offers (json, markdown, text when `--format text`
     exists) at every budget, and matches the fact list against each output;
  5. runs `repocue search NAME` for the 5 central API names (hits@1 = the
     first hit is in the defining non-test file);
  6. counts real o200k tokens with tokcount/ (n/a when it cannot be built).
Results: DIR/results/quality.json, DIR/results/quality.md and every raw output
under DIR/results/outputs/. Python standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import checkout  # noqa: E402
import scenarios  # noqa: E402

VIEWS = ["overview", "manifest", "structure", "delta", "search"]
CATEGORIES = ["purpose", "languages", "components", "entry_points", "commands",
              "documents", "api", "recent_commits", "worktree"]
DELTA_BUDGETS = [300, 600, 1000]
COMMENT = {".py": "#", ".rb": "#", ".sh": "#", ".toml": "#", ".yml": "#", ".yaml": "#",
           ".md": "", ".rst": "", ".txt": ""}
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Quality Harness", "GIT_AUTHOR_EMAIL": "quality@example.invalid",
    "GIT_COMMITTER_NAME": "Quality Harness", "GIT_COMMITTER_EMAIL": "quality@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def log(message: str) -> None:
    print(f"[quality {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- matching

def path_regex(path: str) -> str:
    """A path as a whole token, with or without a trailing slash."""
    core = re.escape(path.rstrip("/"))
    return r"(?<![\w./-])" + core + r"/?(?![\w.-]|/[\w.-])"


def word_regex(word: str) -> str:
    return r"(?<!\w)" + re.escape(word) + r"(?!\w)"


def compile_fact(fact: dict) -> list:
    matchers = []
    for text in fact.get("any", []):
        matchers.append(re.compile(re.escape(text)))
    for word in fact.get("words", []):
        matchers.append(re.compile(word_regex(word)))
    for path in fact.get("paths", []):
        matchers.append(re.compile(path_regex(path)))
    if "regex" in fact:
        matchers.append(re.compile(fact["regex"]))
    if not matchers:
        raise SystemExit(f"fact {fact['id']} has no matcher")
    return matchers


# A JSON symbol's `members` list: the names of its type's methods.
JSON_MEMBERS = re.compile(r'"members":\[([^\]]*)\]')


def variants(text: str) -> list[str]:
    """The raw output; the same with JSON string escapes undone; and with each JSON `members`
    list written as the text format writes it (`.Execute .Flags`), so that a fact matching a
    type's method (`[:#.]Execute`) counts in every format that names it."""
    out = [text]
    if "\\" in text:
        out.append(text.replace('\\"', '"').replace("\\u0027", "'").replace("\\\\", "\\"))
    if JSON_MEMBERS.search(text):
        dotted = lambda m: " ".join("." + n for n in re.findall(r'"([^"]*)"', m.group(1)))
        out.extend([JSON_MEMBERS.sub(dotted, t) for t in out])
    return out


def found(matchers: list, texts: list[str]) -> bool:
    return any(m.search(t) for m in matchers for t in texts)


def score_facts(facts: list[dict], text: str) -> dict:
    texts = variants(text)
    per_cat: dict[str, list[int]] = {}
    hits, misses = [], []
    for fact in facts:
        ok = found(fact["_matchers"], texts)
        cat = per_cat.setdefault(fact["category"], [0, 0])
        cat[1] += 1
        if ok:
            cat[0] += 1
            hits.append(fact["id"])
        else:
            misses.append(fact["id"])
    total = len(facts)
    return {
        "recall": round(len(hits) / total, 4) if total else None,
        "found": len(hits),
        "total": total,
        "categories": {c: {"found": v[0], "total": v[1]} for c, v in per_cat.items()},
        "missed": misses,
    }


# ---------------------------------------------------------------- running repocue

class Runner:
    def __init__(self, binary: str, cache: str, checkout_path: str, outputs: str):
        self.binary = binary
        self.cache = cache
        self.repo = checkout_path
        self.outputs = outputs

    def run(self, *args: str, timeout: int = 3600) -> dict:
        cmd = [self.binary, *args, "--repository", self.repo, "--cache-dir", self.cache]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"rc": None, "stdout": b"", "stderr": "timeout", "seconds": timeout}
        return {"rc": proc.returncode, "stdout": proc.stdout,
                "stderr": proc.stderr.decode("utf-8", "replace").strip(),
                "seconds": round(time.monotonic() - start, 3)}

    def json(self, *args: str) -> dict:
        result = self.run(*args)
        if result["rc"] != 0:
            raise SystemExit(f"repocue {' '.join(args)} failed: {result['stderr'][:500]}")
        return json.loads(result["stdout"])

    def save(self, name: str, data: bytes) -> str:
        os.makedirs(self.outputs, exist_ok=True)
        path = os.path.join(self.outputs, name)
        with open(path, "wb") as handle:
            handle.write(data)
        return path


def error_code(stderr: str) -> str:
    for line in stderr.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict):
            err = doc.get("error", doc)
            if isinstance(err, dict) and "code" in err:
                return str(err["code"])
    return (stderr.splitlines() or ["error"])[0][:80]


def supported_formats(binary: str) -> list[str]:
    helptext = subprocess.run([binary, "cue", "--help"], capture_output=True, text=True).stdout
    lines = helptext.splitlines()
    at = next((i for i, l in enumerate(lines) if "--format" in l), None)
    if at is None:
        return ["json"]
    # Short help: `[possible values: json, markdown]` on the flag's line; long help (values
    # with descriptions): one `- name: ...` line per value below it, up to the next flag.
    values = re.search(r"possible values: ([^\]]*)", lines[at])
    if values:
        names = [v.strip() for v in values.group(1).split(",")]
    else:
        names = []
        for l in lines[at + 1:]:
            if l.strip().startswith("--"):
                break
            m = re.match(r"\s*- ([a-z]+):", l)
            if m:
                names.append(m.group(1))
    names = names or ["json"]
    return [f for f in ("json", "markdown", "text") if f in names]


# ---------------------------------------------------------------- tokens

class TokenCounter:
    """Batches every output and counts o200k tokens with one tokcount process."""

    def __init__(self, binary: str | None):
        self.binary = binary
        self.pending: list[tuple[dict, str, bytes]] = []

    def add(self, record: dict, key: str, data: bytes) -> None:
        record[key] = None
        self.pending.append((record, key, data))

    def flush(self) -> None:
        if not self.pending:
            return
        counts = None
        if self.binary:
            payload = b"".join(d.replace(b"\0", b"") + b"\0" for _, _, d in self.pending)
            proc = subprocess.run([self.binary, "--batch"], input=payload, capture_output=True)
            if proc.returncode == 0:
                counts = [int(x) for x in proc.stdout.split()]
            else:
                log(f"tokcount failed: {proc.stderr.decode()[:200]}")
        for i, (record, key, _) in enumerate(self.pending):
            record[key] = counts[i] if counts and i < len(counts) else None
        self.pending = []


def build_tokcount(explicit: str | None, disabled: bool) -> str | None:
    if disabled:
        return None
    if explicit:
        return explicit
    crate = os.path.join(HERE, "tokcount")
    target = os.path.join(crate, "target")
    binary = os.path.join(target, "release", "tokcount")
    if os.access(binary, os.X_OK):
        return binary
    cargo = shutil.which("cargo")
    if not cargo:
        log("cargo not found: real token counts are n/a")
        return None
    log("building tokcount (first use)")
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    proc = subprocess.run([cargo, "build", "--release", "--quiet", "--manifest-path",
                           os.path.join(crate, "Cargo.toml")], env=env, capture_output=True, text=True)
    if proc.returncode != 0 or not os.access(binary, os.X_OK):
        log(f"tokcount build failed, real token counts are n/a: {proc.stderr.strip()[-300:]}")
        return None
    return binary


# ---------------------------------------------------------------- phases

def load_facts(name: str) -> dict:
    with open(os.path.join(HERE, "facts", checkout.slug(name) + ".toml"), "rb") as handle:
        doc = tomllib.load(handle)
    if doc.get("repo") != name:
        raise SystemExit(f"facts for {name} name {doc.get('repo')}")
    ids = set()
    for fact in doc["fact"]:
        if fact["id"] in ids:
            raise SystemExit(f"{name}: duplicate fact id {fact['id']}")
        ids.add(fact["id"])
        if fact["category"] not in CATEGORIES:
            raise SystemExit(f"{name}: {fact['id']}: unknown category {fact['category']}")
        fact["_matchers"] = compile_fact(fact)
    return doc


def commit_all(path: str, message: str) -> None:
    env = dict(os.environ, **GIT_ENV)
    for args in (["add", "-A"], ["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", message]):
        proc = subprocess.run(["git", *args], cwd=path, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"git {' '.join(args)} failed in {path}: {proc.stderr.strip()}")


def make_dirty(path: str, worktree: dict) -> None:
    modify = os.path.join(path, worktree["modify"])
    ext = os.path.splitext(modify)[1]
    marker = COMMENT.get(ext, "//")
    with open(modify, "a", encoding="utf-8") as handle:
        handle.write(f"\n{marker} quality harness: scripted local edit\n".replace("\n ", "\n"))
    with open(os.path.join(path, worktree["untracked"]), "w", encoding="utf-8") as handle:
        handle.write("quality harness: scripted untracked file\n")


def delta_scenario(name: str, path: str, commit: str, runner: Runner, formats: list[str],
                   tokens: TokenCounter) -> dict | None:
    if name not in scenarios.SCENARIOS:
        return None
    before = runner.json("refresh")["snapshot"]
    expected = scenarios.apply(name, path)
    commit_all(path, "quality harness: delta scenario")
    runner.json("refresh")
    path_matchers = {p["path"]: re.compile(path_regex(p["path"])) for p in expected["paths"]}
    sym_matchers = [(s, re.compile(word_regex(s["fragment"])) if s["fragment"] == s["name"]
                     else re.compile(re.escape(s["fragment"]))) for s in expected["symbols"]]
    runs = []
    for fmt in formats:
        for budget in DELTA_BUDGETS:
            result = runner.run("cue", "--view", "delta", "--since", before,
                                "--max-tokens", str(budget), "--format", fmt)
            record = {"format": fmt, "budget": budget, "rc": result["rc"]}
            if result["rc"] != 0:
                record["error"] = error_code(result["stderr"])
                runs.append(record)
                continue
            out = result["stdout"]
            runner.save(f"delta-scenario-{budget}.{fmt}", out)
            texts = variants(out.decode("utf-8", "replace"))
            paths_found = [p for p, m in path_matchers.items() if any(m.search(t) for t in texts)]
            syms_found = [f"{s['op']}:{s['name']}" for s, m in sym_matchers
                          if any(m.search(t) for t in texts)]
            record.update({
                "bytes": len(out), "est_tokens": estimate(out, fmt),
                "paths_found": len(paths_found), "paths_total": len(path_matchers),
                "symbols_found": len(syms_found), "symbols_total": len(sym_matchers),
                "paths_missed": sorted(set(path_matchers) - set(paths_found)),
                "symbols_missed": [f"{s['op']}:{s['name']}" for s, _ in sym_matchers
                                   if f"{s['op']}:{s['name']}" not in syms_found],
            })
            tokens.add(record, "real_tokens", out)
            runs.append(record)
    checkout.reset(path, commit)
    runner.json("refresh")
    return {"since": before, "expected": expected, "runs": runs}


def estimate(out: bytes, fmt: str) -> int:
    """The cue contract's token estimate of printed output: a quarter of the bytes, two
    sevenths for the text format (docs/cues.md, Formats)."""
    return math.ceil(len(out) * 2 / 7) if fmt == "text" else math.ceil(len(out) / 4)


def envelope_tokens(out: bytes) -> int | None:
    """Estimated tokens of a JSON cue that are not its content's value: the envelope, warnings,
    omitted count and `more` (the key `"content":` included). The printed output's newline is
    not counted."""
    text = out.decode("utf-8").rstrip("\n")
    try:
        content = json.loads(text).get("content")
    except ValueError:
        return None
    inner = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    # The content is serialized exactly as it appears when the re-serialization is found in it.
    if inner not in text:
        return None
    return math.ceil(len(text.encode()) / 4) - math.ceil(len(inner.encode()) / 4)


def view_matrix(facts: list[dict], runner: Runner, formats: list[str], budgets: list[int],
                search_query: str, tokens: TokenCounter) -> list[dict]:
    rows = []
    for view in VIEWS:
        for fmt in formats:
            for budget in budgets:
                args = ["cue", "--view", view, "--max-tokens", str(budget), "--format", fmt]
                if view == "search":
                    args += ["--query", search_query]
                result = runner.run(*args)
                record = {"view": view, "format": fmt, "budget": budget, "rc": result["rc"],
                          "seconds": result["seconds"]}
                if result["rc"] != 0:
                    record["error"] = error_code(result["stderr"])
                    rows.append(record)
                    continue
                out = result["stdout"]
                runner.save(f"{view}-{budget}.{fmt}", out)
                record["bytes"] = len(out)
                record["est_tokens"] = estimate(out, fmt)
                record["over_budget"] = record["est_tokens"] > budget
                if fmt == "json":
                    record["envelope_tokens"] = envelope_tokens(out)
                record.update(score_facts(facts, out.decode("utf-8", "replace")))
                tokens.add(record, "real_tokens", out)
                rows.append(record)
    return rows


def search_checks(facts: list[dict], runner: Runner) -> list[dict]:
    checks = []
    for fact in facts:
        spec = fact.get("search")
        if not spec:
            continue
        result = runner.run("search", spec["query"], "--max-tokens", "2000", "--format", "json")
        record = {"query": spec["query"], "defined_in": spec["defined_in"], "rc": result["rc"]}
        if result["rc"] != 0:
            record["error"] = error_code(result["stderr"])
            checks.append(record)
            continue
        runner.save(f"search-{spec['query']}.json", result["stdout"])
        hits = json.loads(result["stdout"]).get("content", {}).get("hits", [])
        record["first"] = (f"{hits[0].get('kind')} {hits[0].get('path')} {hits[0].get('title', '')}".strip()
                           if hits else None)
        record["hit_at_1"] = bool(hits) and hits[0].get("path") in spec["defined_in"]
        rank = next((i + 1 for i, h in enumerate(hits) if h.get("path") in spec["defined_in"]), None)
        record["defining_rank"] = rank
        checks.append(record)
    return checks


def run_repo(repo: dict, args, formats: list[str], tokens: TokenCounter) -> dict:
    name, commit = repo["name"], repo["commit"]
    log(f"{name}: checkout")
    path = checkout.ensure_checkout(args.work, args.source, repo)
    doc = load_facts(name)
    facts = doc["fact"]
    cache = os.path.join(os.path.abspath(args.work), "cache", checkout.slug(name))
    outputs = os.path.join(os.path.abspath(args.work), "results", "outputs", checkout.slug(name))
    shutil.rmtree(outputs, ignore_errors=True)
    runner = Runner(args.bin, cache, path, outputs)
    marker = cache + ".initialized"
    init = None
    if not os.path.exists(marker):
        log(f"{name}: repocue init")
        res = runner.run("init")
        if res["rc"] != 0:
            raise SystemExit(f"{name}: init failed: {res['stderr'][:500]}")
        doc_init = json.loads(res["stdout"])
        init = {"seconds": res["seconds"], "tracked_files": doc_init.get("tracked_files")}
        with open(marker, "w") as handle:
            handle.write(json.dumps(init))
    else:
        with open(marker) as handle:
            init = json.loads(handle.read() or "{}")
    log(f"{name}: delta scenario")
    delta = delta_scenario(name, path, commit, runner, formats, tokens)
    log(f"{name}: dirty tree and views")
    make_dirty(path, doc["worktree"])
    runner.json("refresh")
    query = " ".join(f["search"]["query"] for f in facts if f.get("search"))
    rows = view_matrix(facts, runner, formats, args.budgets, query, tokens)
    log(f"{name}: search checks")
    checks = search_checks(facts, runner)
    checkout.reset(path, commit)
    return {"repo": name, "commit": commit, "held_out": repo["held_out"], "language": repo["language"],
            "facts": len(facts), "init": init, "views": rows, "search": checks, "delta": delta}


# ---------------------------------------------------------------- report

def cell(row: dict | None) -> str:
    if row is None:
        return "—"
    if row.get("rc") != 0:
        return f"err `{row.get('error', '?')}`"
    real = row.get("real_tokens")
    return f"{row['recall']:.2f} ({row['est_tokens']}/{real if real is not None else 'n/a'})"


def markdown(results: dict) -> str:
    repos = results["repos"]
    budgets = results["budgets"]
    formats = results["formats"]
    lines = [f"# RepoCue quality: `{results['binary']}`", "",
             f"{results['version']} · formats: {', '.join(formats)}"
             f"{'' if 'text' in formats else ' · text: n/a (binary has no --format text)'}"
             f" · real tokens: {'o200k (tokcount)' if results['tokcount'] else 'n/a'}", "",
             "Cells: recall (estimated tokens / real o200k tokens). **HELD OUT** rows were never used for tuning.", ""]

    def label(r):
        return f"{r['repo']}{' **HELD OUT**' if r['held_out'] else ''}"

    for group, title in ((False, "Tuned repositories"), (True, "Held-out repositories")):
        members = [r for r in repos if r["held_out"] == group]
        if not members:
            continue
        lines += [f"## {title}", "", "| repository | view | format | " + " | ".join(str(b) for b in budgets) + " |",
                  "|---|---|---|" + "---|" * len(budgets)]
        for r in members:
            for view in VIEWS:
                for fmt in formats:
                    cells = []
                    for b in budgets:
                        row = next((x for x in r["views"] if x["view"] == view and x["format"] == fmt
                                    and x["budget"] == b), None)
                        cells.append(cell(row))
                    lines.append(f"| {label(r)} | {view} | {fmt} | " + " | ".join(cells) + " |")
        lines.append("")

    lines += ["## Targets of issue 10", "",
              "| repository | overview@250 ≥ 0.80 | overview@500 ≥ 0.90 | real tokens of overview@500 ≤ 560 | envelope of overview@500 ≤ 60 | delta@300 all paths + symbol ops | search hits@1 5/5 | outputs over budget |",
              "|---|---|---|---|---|---|---|---|"]
    for r in repos:
        def ov(b, fmt="json"):
            return next((x for x in r["views"] if x["view"] == "overview" and x["format"] == fmt
                         and x["budget"] == b and x.get("rc") == 0), None)
        marks = []
        for b, goal in ((250, 0.80), (500, 0.90)):
            row = ov(b)
            marks.append(f"{'✓' if row and row['recall'] >= goal else '✗'} {row['recall']:.2f}" if row else "✗ err")
        real = [f"{f} {ov(500, f)['real_tokens']}" for f in formats
                if ov(500, f) and ov(500, f).get("real_tokens") is not None]
        marks.append(", ".join(real) or "n/a")
        env = (ov(500) or {}).get("envelope_tokens")
        marks.append(f"{'✓' if env <= 60 else '✗'} {env}" if env is not None else "n/a")
        runs = [x for x in (r["delta"] or {}).get("runs", []) if x["budget"] == 300 and x.get("rc") == 0]
        marks.append(", ".join(f"{'✓' if x['paths_found'] == x['paths_total'] and x['symbols_found'] == x['symbols_total'] else '✗'} "
                               f"{x['format']} {x['paths_found']}/{x['paths_total']}+{x['symbols_found']}/{x['symbols_total']}"
                               for x in runs) or "—")
        ok = sum(1 for c in r["search"] if c.get("hit_at_1"))
        marks.append(f"{'✓' if ok == len(r['search']) else '✗'} {ok}/{len(r['search'])}")
        over = [f"{x['view']}@{x['budget']} {x['format']} ({x['est_tokens']})" for x in r["views"] if x.get("over_budget")]
        marks.append(", ".join(over) or "none")
        lines.append(f"| {label(r)} | " + " | ".join(marks) + " |")
    lines += ["", "Over budget = the cue contract's estimate of the printed output (final newline included) > --max-tokens: ceil(bytes / 4), ceil(bytes * 2 / 7) for text.", ""]

    lines += ["## Overview recall per category (json)", ""]
    for b in budgets:
        lines += [f"### {b} tokens", "", "| repository | " + " | ".join(CATEGORIES) + " | overall |",
                  "|---|" + "---|" * (len(CATEGORIES) + 1)]
        for r in repos:
            row = next((x for x in r["views"] if x["view"] == "overview" and x["format"] == "json"
                        and x["budget"] == b and x.get("rc") == 0), None)
            if not row:
                lines.append(f"| {label(r)} | " + " | ".join("—" for _ in CATEGORIES) + " | — |")
                continue
            cats = [f"{row['categories'][c]['found']}/{row['categories'][c]['total']}"
                    if c in row["categories"] else "—" for c in CATEGORIES]
            lines.append(f"| {label(r)} | " + " | ".join(cats) + f" | {row['recall']:.2f} |")
        lines.append("")

    lines += ["## Overview misses (json)", ""]
    for r in repos:
        for b in budgets:
            row = next((x for x in r["views"] if x["view"] == "overview" and x["format"] == "json"
                        and x["budget"] == b and x.get("rc") == 0), None)
            if row:
                lines.append(f"- {label(r)} @{b}: {', '.join(row['missed']) or 'none'}")
    lines.append("")

    lines += ["## Delta scenarios", "",
              "| repository | format | budget | paths | symbol ops | est/real tokens | missed |",
              "|---|---|---|---|---|---|---|"]
    for r in repos:
        if not r["delta"]:
            continue
        for run in r["delta"]["runs"]:
            if run.get("rc") != 0:
                lines.append(f"| {label(r)} | {run['format']} | {run['budget']} | err `{run.get('error')}` | | | |")
                continue
            missed = ", ".join(run["paths_missed"] + run["symbols_missed"]) or "none"
            lines.append(f"| {label(r)} | {run['format']} | {run['budget']} | "
                         f"{run['paths_found']}/{run['paths_total']} | {run['symbols_found']}/{run['symbols_total']} | "
                         f"{run['est_tokens']}/{run.get('real_tokens') if run.get('real_tokens') is not None else 'n/a'} | {missed} |")
    lines.append("")

    lines += ["## Search: the 5 central API names", "",
              "| repository | hits@1 | query → first hit (rank of the defining file) |", "|---|---|---|"]
    for r in repos:
        ok = sum(1 for c in r["search"] if c.get("hit_at_1"))
        detail = "; ".join(
            f"{'✓' if c.get('hit_at_1') else '✗'} `{c['query']}` → {c.get('first') or c.get('error')} ({c.get('defining_rank') or '-'})"
            for c in r["search"])
        lines.append(f"| {label(r)} | {ok}/{len(r['search'])} | {detail} |")
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the repocue binary to measure")
    parser.add_argument("--work", required=True, help="work dir outside the project: checkouts, caches, results")
    parser.add_argument("--source", default=checkout.DEFAULT_SOURCE,
                        help="base URL (default https://github.com) or mirror root <root>/<owner>+<name>/repo")
    parser.add_argument("--repo", action="append", help="only this repository (repeatable)")
    parser.add_argument("--budgets", default="250,500,1000,2000")
    parser.add_argument("--tokcount", help="path of a built tokcount binary")
    parser.add_argument("--no-tokcount", action="store_true", help="report real tokens as n/a")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite DIR/results/quality.md from DIR/results/quality.json without running anything")
    args = parser.parse_args()
    if args.report_only:
        with open(os.path.join(os.path.abspath(args.work), "results", "quality.json")) as handle:
            report = markdown(json.load(handle))
        with open(os.path.join(os.path.abspath(args.work), "results", "quality.md"), "w") as handle:
            handle.write(report)
        print(report)
        return
    args.bin = os.path.abspath(args.bin)
    args.budgets = [int(b) for b in args.budgets.split(",")]
    work = os.path.abspath(args.work)
    project = os.path.abspath(os.path.join(HERE, "..", ".."))
    if os.path.commonpath([work, project]) == project:
        raise SystemExit("--work must be outside the project (nothing is written into it)")
    if not os.access(args.bin, os.X_OK):
        raise SystemExit(f"not an executable: {args.bin}")
    formats = supported_formats(args.bin)
    tokcount = build_tokcount(args.tokcount, args.no_tokcount)
    tokens = TokenCounter(tokcount)
    version = subprocess.run([args.bin, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"binary": args.bin, "version": version, "formats": formats, "budgets": args.budgets,
               "tokcount": bool(tokcount), "repos": []}
    for repo in checkout.load_repos(args.repo):
        results["repos"].append(run_repo(repo, args, formats, tokens))
        tokens.flush()
    out_dir = os.path.join(work, "results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "quality.json"), "w") as handle:
        json.dump(results, handle, indent=1)
    report = markdown(results)
    with open(os.path.join(out_dir, "quality.md"), "w") as handle:
        handle.write(report)
    print(report)
    log(f"results in {out_dir}/quality.md and quality.json")


if __name__ == "__main__":
    main()
