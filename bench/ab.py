#!/usr/bin/env python3
"""Before/after timing of two repocue binaries on one repository, interleaved.

`bench/run.sh` measures one binary against external references; two of its reports taken one
after the other on a noisy machine differ by more than a small change moves (git status itself
drifted from 5.4 to 6.3 ms between two flask reports). This script runs binary A and binary B
alternately, the order flipping every round, with `git status` timed in the same rounds, and
prints medians of wall and CPU time per operation, B - A and B / A.

    bench/ab.py --a OLD_BIN --b NEW_BIN --repo /tmp/flask
    bench/ab.py --a OLD --b NEW --repo /tmp/babel --rounds 9 --ops baseline

Operations (`--ops`, comma-separated; default all but `baseline`):
  status    repocue status, warm cache, nothing changed
  noop      repocue refresh, nothing changed
  overview  repocue cue --max-tokens 500 (JSON), warm
  baseline  repocue init into an empty cache with REPOCUE_ANALYSIS=off (the content baseline)
  editcue   append a blank line to one tracked file, then repocue cue (it refreshes, then answers):
            what an agent pays after each edit. Runs in a `git clone --shared` of the repository
            in the scratch directory (--edit-file names the file; default: the largest tracked
            source file), so the repository itself is never written.

Each binary gets its own cache directory (initialised before the first round), the repository
is only read, and everything is removed at the end. Standard library only.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

OPS = ("status", "noop", "overview", "baseline", "editcue")
SOURCE = (".c", ".h", ".rs", ".py", ".go", ".js", ".ts", ".java", ".rb")


def timed(cmd, env=None, cwd=None):
    """Runs cmd; returns (wall ms, CPU ms of the child and its children) or raises on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"ab: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode(errors='replace').strip()}")
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return wall, cpu


def command(binary, cache, op, repo):
    base = [binary, "--cache-dir", cache]
    return {
        "status": base + ["--repository", repo, "status"],
        "noop": base + ["--repository", repo, "refresh"],
        "overview": base + ["--repository", repo, "cue", "--max-tokens", "500"],
        "baseline": base + ["--repository", repo, "init"],
        "editcue": base + ["--repository", repo, "cue", "--max-tokens", "500"],
    }[op]


def edit_target(repo, named):
    """The tracked file an `editcue` round appends to: `named`, else the largest source file."""
    if named:
        return named
    listed = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True, check=True)
    sources = [p for p in listed.stdout.decode(errors="replace").split("\0") if p.endswith(SOURCE)]
    if not sources:
        sys.exit("ab: editcue needs --edit-file: no tracked source file")
    return max(sources, key=lambda p: (os.path.getsize(os.path.join(repo, p)), p))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="the binary before the change")
    p.add_argument("--b", required=True, help="the binary after the change")
    p.add_argument("--repo", required=True, help="a Git work tree (only read)")
    p.add_argument("--rounds", type=int, default=25, help="alternating rounds (default 25)")
    p.add_argument("--ops", default="status,noop,overview", help="comma-separated, of: " + ", ".join(OPS))
    p.add_argument("--edit-file", help="for editcue: the tracked file to append to")
    args = p.parse_args()
    ops = [o for o in args.ops.split(",") if o]
    unknown = [o for o in ops if o not in OPS]
    if unknown or not ops or args.rounds < 1:
        sys.exit(f"ab: unknown operation(s) {unknown} or no rounds; choose from {', '.join(OPS)}")
    repo = os.path.abspath(args.repo)
    bins = {"A": os.path.abspath(args.a), "B": os.path.abspath(args.b)}
    for name, b in bins.items():
        if not os.access(b, os.X_OK):
            sys.exit(f"ab: --{name.lower()} {b} is not an executable")
    scratch = tempfile.mkdtemp(prefix="repocue-ab-")
    try:
        caches = {k: os.path.join(scratch, k) for k in bins}
        warm = [o for o in ops if o not in ("baseline", "editcue")]
        if warm:
            for k, b in bins.items():
                timed([b, "--cache-dir", caches[k], "--repository", repo, "init"])
        if "editcue" in ops:
            clone = os.path.join(scratch, "clone")
            subprocess.run(["git", "-c", "init.defaultBranch=main", "clone", "-q", "--shared", repo, clone],
                           check=True)
            target = os.path.join(clone, edit_target(clone, args.edit_file))
            edit_caches = {k: os.path.join(scratch, "edit-" + k) for k in bins}
            for k, b in bins.items():
                timed([b, "--cache-dir", edit_caches[k], "--repository", clone, "init"])
        env_off = dict(os.environ, REPOCUE_ANALYSIS="off")
        samples = {(k, o): [] for k in list(bins) + ["git"] for o in ops}
        for r in range(args.rounds):
            order = ["A", "B"] if r % 2 == 0 else ["B", "A"]
            for op in ops:
                for k in order:
                    if op == "baseline":
                        fresh = os.path.join(scratch, "fresh-" + k)
                        shutil.rmtree(fresh, ignore_errors=True)
                        samples[(k, op)].append(timed(command(bins[k], fresh, op, repo), env=env_off))
                    elif op == "editcue":
                        # A blank line: new content in any language, nothing for a parser to trip on.
                        with open(target, "a") as f:
                            f.write("\n")
                        samples[(k, op)].append(timed(command(bins[k], edit_caches[k], op, clone)))
                    else:
                        samples[(k, op)].append(timed(command(bins[k], caches[k], op, repo)))
                where = clone if op == "editcue" else repo
                samples[("git", op)].append(timed(["git", "-C", where, "status", "--porcelain=v2"]))
        med = lambda xs, i: statistics.median(x[i] for x in xs)
        print(f"# repocue A/B: {os.path.basename(repo)}, {args.rounds} alternating rounds\n")
        print(f"A = `{bins['A']}`  \nB = `{bins['B']}`\n")
        print("| operation | git status | A wall | B wall | B - A | B / A | A CPU | B CPU | B / A CPU |")
        print("|---|---|---|---|---|---|---|---|---|")
        for op in ops:
            a, b, g = samples[("A", op)], samples[("B", op)], samples[("git", op)]
            aw, bw, ac, bc = med(a, 0), med(b, 0), med(a, 1), med(b, 1)
            print(f"| {op} | {med(g, 0):.2f} ms | {aw:.2f} ms | {bw:.2f} ms | {bw - aw:+.2f} ms "
                  f"| {bw / aw:.3f} | {ac:.1f} ms | {bc:.1f} ms | {bc / ac if ac else float('nan'):.3f} |")
        print("\nMedians; CPU is user + system time of the process and its Git children. "
              "The order of A and B flips every round.")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
