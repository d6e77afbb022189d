#!/usr/bin/env python3
"""Report module dependency cycles inside a Rust crate's src/ directory.

Usage: scripts/module-cycles.py [SRC_DIR] [--depth N] [--graph]

A node is a module path truncated to DEPTH segments: 1 groups each of the crate root's
children with its submodules (`cue`, `store`, `refresh`); the default, 0, makes every file
its own node (`cue::views::overview`), so a parent and its child may not depend on each
other either. An edge A -> B means some non-test code in A names
`crate::B...` (in `use` items, grouped `use crate::{..}` imports, or inline paths) or
reaches B through `super::`. Unit-test modules (`#[cfg(test)]` to the end of the file)
are ignored: tests may look anywhere. Exit status 1 when any cycle exists.
"""
import os
import re
import sys

def module_path(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel

def strip_noise(text):
    cut = re.search(r"^\s*#\[cfg\(test\)\]", text, re.M)
    if cut:
        text = text[: cut.start()]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text

def grouped_targets(body):
    """Top-level names inside a `crate::{...}` group."""
    names, depth, cur = [], 0, ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            names.append(cur)
            cur = ""
            continue
        if depth == 0 or ch not in "{}":
            cur += ch if depth == 0 else ""
    names.append(cur)
    out = []
    for n in names:
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", n)
        if m:
            out.append([m.group(1)] + re.findall(r"::\s*([A-Za-z_][A-Za-z0-9_]*)", n)[:3])
    return out

def references(mod, text):
    refs = []
    for m in re.finditer(r"\bcrate\s*::\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        refs.extend(grouped_targets(text[m.end() : i - 1]))
    for m in re.finditer(r"\bcrate((?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)", text):
        refs.append(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m.group(1)))
    # Relative paths: `child::x` or `self::child::x` naming a submodule of this module.
    for m in re.finditer(r"(?<![:\w])(?:self\s*::\s*)?([a-z_][a-z0-9_]*)((?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)", text):
        if m.group(1) not in ("crate", "super", "self", "std", "core", "alloc"):
            refs.append(mod + [m.group(1)] + re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m.group(2)))
    for m in re.finditer(r"\b((?:super\s*::\s*)+)((?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)*[A-Za-z_][A-Za-z0-9_]*)?", text):
        ups = m.group(1).count("super")
        base = mod[: max(0, len(mod) - ups)]
        rest = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m.group(2) or "")
        refs.append(base + rest)
    return refs

def main():
    args = sys.argv[1:]
    depth, show = 0, False
    if "--depth" in args:
        i = args.index("--depth")
        depth = int(args[i + 1])
        del args[i : i + 2]
    if depth <= 0:
        depth = 1000
    if "--graph" in args:
        args.remove("--graph")
        show = True
    src = args[0] if args else "crates/repocue/src"
    modules = set()
    files = []
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                mod = module_path(src, path)
                files.append((mod, path))
                for k in range(1, len(mod) + 1):
                    modules.add(tuple(mod[:k]))
    edges = {}
    for mod, path in files:
        node = tuple(mod[:depth])
        if not node:
            continue  # the crate root declares modules and re-exports; it is not a layer
        with open(path, encoding="utf-8") as fh:
            text = strip_noise(fh.read())
        for ref in references(mod, text):
            # the longest prefix of the reference that is a module
            target = ()
            for k in range(1, len(ref) + 1):
                if tuple(ref[:k]) in modules:
                    target = tuple(ref[:k])
            target = target[:depth]
            if target and target != node:
                edges.setdefault(node, set()).add(target)
    nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts} | {tuple(m[:depth]) for m, _ in files if m})
    # Tarjan's strongly connected components
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))
    for v in nodes:
        if v not in index:
            visit(v)
    name = lambda n: "::".join(n)
    if show:
        for v in nodes:
            print(f"{name(v)} -> {', '.join(name(t) for t in sorted(edges.get(v, ()))) or '(none)'}")
    cycles = [c for c in sccs if len(c) > 1]
    if not cycles:
        print(f"module-cycles: {len(nodes)} modules ({'files' if depth == 1000 else f'depth {depth}'}) in {src}, no cycles")
        return 0
    for comp in sorted(cycles):
        members = set(comp)
        print("cycle: " + " <-> ".join(name(c) for c in comp))
        for v in comp:
            for w in sorted(edges.get(v, ())):
                if w in members:
                    print(f"  {name(v)} -> {name(w)}")
    return 1

if __name__ == "__main__":
    sys.exit(main())
