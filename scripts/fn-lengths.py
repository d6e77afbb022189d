#!/usr/bin/env python3
"""List the longest functions of a Rust source tree (test modules excluded).

Usage: scripts/fn-lengths.py [SRC_DIR] [--top N] [--max LINES]

A function's length is its line count from the `fn` line to its closing brace (doc comments
and attributes excluded). Code from the first `#[cfg(test)]` of a file on is skipped. With
--max, exits 1 when a function is longer, unless the line before it (or its doc comment)
says `long-fn:` followed by the reason.
"""
import os
import re
import sys


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, l in enumerate(lines):
        if re.match(r"\s*#\[cfg\(test\)\]", l):
            lines = lines[:i]
            break
    i = 0
    while i < len(lines):
        m = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)", lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            code = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[j])
            code = re.sub(r"'(?:\\.|[^'\\])'", "''", code)
            code = code.split("//")[0]
            depth += code.count("{") - code.count("}")
            started = started or "{" in code
            if started and depth <= 0:
                break
            if not started and code.rstrip().endswith(";"):
                break
            j += 1
        k = i - 1
        reason = False
        while k >= 0 and lines[k].strip().startswith(("///", "#[", "//")):
            reason = reason or "long-fn:" in lines[k]
            k -= 1
        yield m.group(1), i + 1, j - i + 1, reason
        i += 1


def main():
    args = sys.argv[1:]
    top, limit = 15, None
    if "--top" in args:
        k = args.index("--top")
        top = int(args[k + 1])
        del args[k : k + 2]
    if "--max" in args:
        k = args.index("--max")
        limit = int(args[k + 1])
        del args[k : k + 2]
    src = args[0] if args else "crates/repocue/src"
    found = []
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                p = os.path.join(root, n)
                for name, line, length, reason in functions(p):
                    found.append((length, f"{os.path.relpath(p, src)}:{line}", name, reason))
    found.sort(key=lambda f: (-f[0], f[1]))
    for length, where, name, reason in found[:top]:
        print(f"{length:5}  {where}  {name}{'  (reason given)' if reason else ''}")
    if limit is not None:
        over = [f for f in found if f[0] > limit and not f[3]]
        if over:
            print(f"{len(over)} function(s) over {limit} lines without a `long-fn:` reason")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
