#!/usr/bin/env python3
"""Helpers of bench/run.sh: repository facts and the report.

  bench.py facts REPO OUTDIR       tracked files/bytes, file lists, the file to edit
  bench.py report DATADIR MD JSON  medians, ratios, targets; Markdown table + raw JSON
  bench.py summary OPDIR NAME      one progress line for a measured operation

Only the standard library is used. run.sh owns the measuring; this file only reads what it
left in DATADIR (layout described in run.sh) and never runs a timed command.
"""

import json
import os
import stat
import statistics
import subprocess
import sys

# Extensions of files we would rather edit for the one-file refresh, in order of preference:
# code first (the refresh then includes content analysis), then documents.
EDIT_PREFERENCE = [
    (".rs", "//"), (".py", "#"), (".go", "//"), (".ts", "//"), (".js", "//"),
    (".c", "//"), (".h", "//"), (".md", ""), (".txt", ""),
]


def facts(repo, outdir):
    """Writes facts.json, regular.z (NUL-separated) and regular.txt (one per line)."""
    raw = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--stage"],
                         check=True, stdout=subprocess.PIPE).stdout
    modes = {}
    for rec in raw.split(b"\0"):
        if not rec:
            continue
        head, path = rec.split(b"\t", 1)
        modes.setdefault(path, head.split(b" ", 1)[0])  # conflict stages: keep the first
    regular, counts = [], {"symlinks": 0, "gitlinks": 0, "missing": 0, "not_regular": 0}
    tracked_bytes = 0
    for path, mode in modes.items():
        if mode == b"160000":
            counts["gitlinks"] += 1  # a submodule: a directory, not content we would read
            continue
        try:
            st = os.lstat(os.path.join(repo.encode(), path))
        except FileNotFoundError:
            counts["missing"] += 1
            continue
        # lstat, like `stat -c %s` without -L: a symlink counts as the length of its target
        # path, which is what Git stores and what RepoCue hashes.
        tracked_bytes += st.st_size
        if stat.S_ISLNK(st.st_mode):
            counts["symlinks"] += 1
        elif stat.S_ISREG(st.st_mode):
            regular.append((path, st.st_size))
        else:
            counts["not_regular"] += 1
    with open(os.path.join(outdir, "regular.z"), "wb") as f:
        f.write(b"".join(p + b"\0" for p, _ in regular))
    with open(os.path.join(outdir, "regular.txt"), "wb") as f:
        # ctags -L reads one name per line: names with a newline cannot be given to it.
        f.write(b"".join(p + b"\n" for p, _ in regular if b"\n" not in p))

    edit, comment = pick_edit_file(repo, regular)
    head = subprocess.run(["git", "-C", repo, "rev-parse", "--short=12", "HEAD"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip()
    dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "-z", "--untracked-files=all"],
                           check=True, stdout=subprocess.PIPE).stdout.count(b"\0")
    out = {
        "path": os.path.abspath(repo),
        "head": head or None,
        "tracked_files": len(modes),
        "tracked_bytes": tracked_bytes,
        "regular_files": len(regular),
        "regular_bytes": sum(s for _, s in regular),
        **counts,
        "dirty_entries_before": dirty,
        "edit_file": edit,
        "edit_comment": comment,
    }
    with open(os.path.join(outdir, "facts.json"), "w") as f:
        json.dump(out, f, indent=1)
    # run.sh reads these two lines with `read`.
    print(edit or "")
    print(comment)


def pick_edit_file(repo, regular):
    """A tracked text file of 1–64 KiB, code preferred; the middle one of its kind by path."""
    for ext, comment in EDIT_PREFERENCE:
        cands = sorted(p for p, s in regular
                       if 1024 <= s <= 65536 and p.endswith(ext.encode()) and b"\n" not in p)
        # Skip files that are not plain UTF-8 text without NULs: the edit must stay a text edit.
        for path in cands[len(cands) // 2:] + cands[:len(cands) // 2]:
            try:
                with open(os.path.join(repo.encode(), path), "rb") as f:
                    data = f.read()
                data.decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if b"\0" not in data and data.endswith(b"\n"):
                return path.decode(), comment
    return None, ""


# ---------------------------------------------------------------------------------------
# Report

# (op, label, reference op, kind, limit): kind "ratio" means median <= limit x reference,
# "plus_ms" means median <= reference + limit ms.
ROWS = [
    ("git_status", "git status --porcelain=v2 (reference)", None, None, None),
    ("repocue_status", "repocue status (warm, unchanged)", "git_status", "ratio", 1.2),
    ("refresh_noop", "repocue refresh (no-op)", "git_status", "ratio", 1.2),
    ("cue_overview", "repocue cue --view overview --max-tokens 500 (warm)", "git_status", "ratio", 1.3),
    ("refresh_edit", "repocue refresh after a one-file edit", "git_status", "plus_ms", 20.0),
    ("sha256sum", "parallel sha256sum of tracked files (reference)", None, None, None),
    ("ctags", "ctags over tracked files (reference)", None, None, None),
    ("baseline_hash", "repocue init baseline, no analysis (REPOCUE_ANALYSIS=off)", "sha256sum", "ratio", 1.2),
    ("baseline", "repocue init baseline, full (structure included)", "ctags", "ratio", 1.5),
]
RSS_LIMIT_MIB = 150
DB_LIMIT_FRACTION = 0.05


def load_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def read_lines(path):
    try:
        with open(path) as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


def median(values):
    """The median; the mean of the two middle values for an even count."""
    return statistics.median(values) if values else None


def op_samples(opdir, name):
    """Returns (wall ms samples, mean CPU ms or None, source) of one measured operation."""
    hf = load_json(os.path.join(opdir, name + ".hf.json"))
    if hf:
        r = hf["results"][0]
        cpu = (r.get("user", 0) + r.get("system", 0)) * 1000 if "user" in r else None
        return [t * 1000 for t in r["times"]], cpu, "hyperfine"
    ns = read_lines(os.path.join(opdir, name + ".ns"))
    if ns:
        cpu = [float(x) for x in read_lines(os.path.join(opdir, name + ".cpu_ms"))]
        return [int(x) / 1e6 for x in ns], (statistics.mean(cpu) if cpu else None), "loop"
    return [], None, None


def fmt_ms(v):
    if v is None:
        return "n/a"
    return "%.1f" % v if v < 100 else "%.0f" % v


def report(datadir, md_path, json_path):
    machine = load_json(os.path.join(datadir, "machine.json"), {})
    repos = []
    for entry in sorted(os.listdir(datadir)):
        rdir = os.path.join(datadir, entry)
        if entry.startswith("repo-") and os.path.isdir(rdir):
            repos.append(repo_result(rdir))

    lines = ["# RepoCue benchmark", ""]
    lines += ["| fact | value |", "| --- | --- |"]
    for key, label in [
        ("date", "date (UTC)"), ("mode", "mode"), ("runs", "runs per operation"),
        ("nproc", "nproc"), ("cpu", "CPU"), ("memory", "memory"), ("kernel", "kernel"),
        ("git", "git"), ("repocue_commit", "repocue commit"), ("repocue_binary", "repocue binary"),
        ("ctags", "ctags"), ("timer", "timer"), ("rss_method", "peak RSS from"),
        ("load_start", "load average at start"), ("load_end", "load average at end"),
    ]:
        if machine.get(key) not in (None, ""):
            lines.append("| %s | %s |" % (label, str(machine[key]).replace("|", "\\|")))
    lines.append("")
    if str(machine.get("mode", "")).startswith("smoke"):
        lines += ["Smoke run: few samples on a tiny repository; the met? column is printed "
                  "but means nothing here.", ""]
    for r in repos:
        lines += repo_markdown(r)
    notes = machine.get("notes") or []
    if notes:
        lines += ["## Notes", ""] + ["- " + n for n in notes] + [""]
    text = "\n".join(lines).rstrip("\n") + "\n"
    with open(md_path, "w") as f:
        f.write(text)
    with open(json_path, "w") as f:
        json.dump({"machine": machine, "repositories": repos}, f, indent=1)
        f.write("\n")


def repo_result(rdir):
    facts_ = load_json(os.path.join(rdir, "facts.json"), {})
    opdir = os.path.join(rdir, "ops")
    ops = {}
    for name in sorted({f.split(".", 1)[0] for f in os.listdir(opdir)} if os.path.isdir(opdir) else []):
        samples, cpu, source = op_samples(opdir, name)
        if not samples:
            continue
        ops[name] = {
            "command": " ".join(read_lines(os.path.join(opdir, name + ".cmd"))),
            "timer": source,
            "samples_ms": [round(s, 3) for s in samples],
            "median_ms": round(median(samples), 3),
            "min_ms": round(min(samples), 3),
            "max_ms": round(max(samples), 3),
            "cpu_mean_ms": round(cpu, 3) if cpu is not None else None,
            "load_before": " ".join(read_lines(os.path.join(opdir, name + ".load"))) or None,
        }
    rss = [int(x) for x in read_lines(os.path.join(rdir, "rss.kib"))]
    outputs = {}
    outdir = os.path.join(rdir, "outputs")
    for f in sorted(os.listdir(outdir)) if os.path.isdir(outdir) else []:
        outputs[f.rsplit(".", 1)[0]] = load_json(os.path.join(outdir, f))
    rows = []
    for op, label, ref, kind, limit in ROWS:
        if op not in ops:
            continue
        m = ops[op]["median_ms"]
        row = {"operation": label, "op": op, "median_ms": m, "cpu_mean_ms": ops[op]["cpu_mean_ms"],
               "reference": ref, "reference_median_ms": None, "ratio": None, "cpu_ratio": None,
               "target": None, "met": None}
        if ref and ref in ops:
            rm = ops[ref]["median_ms"]
            row["reference_median_ms"] = rm
            row["ratio"] = round(m / rm, 3) if rm > 0 else None
            rc, c = ops[ref]["cpu_mean_ms"], ops[op]["cpu_mean_ms"]
            row["cpu_ratio"] = round(c / rc, 3) if rc and c is not None else None
            if kind == "ratio":
                row["target"] = "<= %.1fx %s" % (limit, ref)
                row["met"] = row["ratio"] is not None and row["ratio"] <= limit
            else:
                row["target"] = "<= %s + %d ms" % (ref, limit)
                row["met"] = m <= rm + limit
        rows.append(row)
    db = (outputs.get("metrics_after_baseline") or {}).get("database_bytes")
    tracked = facts_.get("tracked_bytes")
    peak = max(rss) if rss else None
    extra = {
        "peak_rss_kib_samples": rss,
        "peak_rss_mib": round(peak / 1024, 1) if peak else None,
        "peak_rss_met": (peak / 1024 <= RSS_LIMIT_MIB) if peak else None,
        "database_bytes": db,
        "database_fraction": round(db / tracked, 5) if db and tracked else None,
        "database_met": (db / tracked <= DB_LIMIT_FRACTION) if db and tracked else None,
        "git_processes": git_processes(outputs),
    }
    return {"facts": facts_, "operations": ops, "table": rows, **extra, "outputs": outputs,
            "notes": read_lines(os.path.join(rdir, "notes.txt"))}


def git_processes(outputs):
    """Git processes per operation, from the `git_processes` fields RepoCue reports."""
    res = {}
    for key, out in outputs.items():
        if isinstance(out, dict) and "git_processes" in out:
            res[key] = out["git_processes"]
    # The baseline ran under hyperfine, which drops stdout: its own record in the cache has it.
    base = [o for o in (outputs.get("metrics_after_baseline") or {}).get("operations") or []
            if o.get("kind") == "baseline"]
    if base and base[-1].get("git_processes") is not None:
        res["baseline"] = int(base[-1]["git_processes"])
    res.pop("metrics_after_baseline", None)
    res.pop("metrics_after_baseline_hash", None)
    res.pop("baseline_rss_run", None)
    return res


def met(v):
    return "n/a" if v is None else ("yes" if v else "**no**")


def repo_markdown(r):
    f = r["facts"]
    lines = ["## %s" % f.get("path", "?"), ""]
    lines.append("%s tracked files (%s regular, %s symlinks, %s submodules), %s tracked bytes "
                 "(%.1f MiB); HEAD %s; edited file: `%s`" % (
                     f.get("tracked_files"), f.get("regular_files"), f.get("symlinks"),
                     f.get("gitlinks"), f.get("tracked_bytes"), (f.get("tracked_bytes") or 0) / 2**20,
                     f.get("head"), f.get("edit_file")))
    lines += ["", "| operation | median ms | reference median ms | ratio | target | met? "
              "| CPU ms (mean) | CPU ratio |",
              "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: |"]
    ratio = lambda v: "n/a" if v is None else "%.2f" % v  # noqa: E731
    for row in r["table"]:
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            row["operation"], fmt_ms(row["median_ms"]), fmt_ms(row["reference_median_ms"]),
            ratio(row["ratio"]), row["target"] or "", met(row["met"]) if row["target"] else "",
            fmt_ms(row["cpu_mean_ms"]), ratio(row["cpu_ratio"]) if row["reference"] else ""))
    if r["peak_rss_mib"] is not None:
        lines.append("| peak RSS of the baseline | %.1f MiB | | | <= %d MiB | %s | | |" % (
            r["peak_rss_mib"], RSS_LIMIT_MIB, met(r["peak_rss_met"])))
    if r["database_bytes"] is not None:
        lines.append("| database after baseline | %.1f MiB (%.2f%% of tracked bytes) | | | <= %d%% | %s | | |" % (
            r["database_bytes"] / 2**20, 100 * (r["database_fraction"] or 0), 100 * DB_LIMIT_FRACTION,
            met(r["database_met"])))
    gp = r["git_processes"]
    if gp:
        lines.append("| Git processes per operation | %s | | | | | | |" % ", ".join(
            "%s %s" % (k, v) for k, v in sorted(gp.items())))
    lines.append("")
    if r["notes"]:
        lines += ["Notes:", ""] + ["- " + n for n in r["notes"]] + [""]
    return lines


def summary(opdir, name):
    """One line for the progress log."""
    samples, cpu, source = op_samples(opdir, name)
    if samples:
        print("%-15s median %9s ms  (min %s, max %s, n=%d, %s)" % (
            name, fmt_ms(median(samples)), fmt_ms(min(samples)), fmt_ms(max(samples)),
            len(samples), source))


def main(argv):
    if len(argv) == 4 and argv[1] == "summary":
        summary(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "facts":
        facts(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "report":
        report(argv[2], argv[3], argv[4])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
