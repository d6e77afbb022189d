#!/usr/bin/env bash
# Generates a deterministic synthetic Git repository for benchmarks.
#
#   bench/synth.sh [N_FILES] DIR
#
# N_FILES defaults to 100000. DIR must not exist or be empty. The same N_FILES always gives
# the same tree (and, because author, committer and dates are fixed, the same commit).
#
# The mix: ~20 files per directory, directories 3–5 levels deep under a few top-level areas;
# Rust, Python, Go, TypeScript and C sources with a few functions each, Markdown documents
# with headings, JSON/TOML/YAML configuration, some binary files and a few symlinks; sizes
# log-uniform from 100 B to 64 KiB plus a few 1–5 MB files; a README.md with a purpose
# sentence, a Cargo.toml and a package.json at the root; one commit on branch `main`.
#
# Speed: one Python process writes a `git fast-import` stream (one pack, no loose objects,
# no per-file processes), then one `git checkout` writes the work tree and the index.
set -euo pipefail

usage() {
    echo "usage: bench/synth.sh [N_FILES] DIR" >&2
    exit 2
}

case $# in
    1) n_files=100000 dir=$1 ;;
    2) n_files=$1 dir=$2 ;;
    *) usage ;;
esac
if ! [[ $n_files =~ ^[0-9]+$ ]] || ((n_files < 10)); then
    echo "synth.sh: N_FILES must be an integer >= 10, got '$n_files'" >&2
    exit 2
fi
command -v python3 >/dev/null || {
    echo "synth.sh: python3 is required" >&2
    exit 1
}
if [[ -e $dir ]] && [[ -n $(ls -A "$dir") ]]; then
    echo "synth.sh: $dir exists and is not empty" >&2
    exit 1
fi
mkdir -p "$dir"

# Everything that could make the result depend on the caller's configuration is fixed here.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C TZ=UTC
git init -q -b main "$dir"
# Compression level and fsync only change how objects are stored, never their ids.
git -C "$dir" config core.fsync none
git -C "$dir" config pack.compression 1
git -C "$dir" config core.compression 1
git -C "$dir" config user.name "RepoCue Bench"
git -C "$dir" config user.email "bench@repocue.invalid"

python3 - "$n_files" <<'PY' | git -C "$dir" fast-import --quiet --done
import math
import random
import sys

N = int(sys.argv[1])
rng = random.Random(20240601)  # fixed seed: the whole tree follows from it and N
out = sys.stdout.buffer

WORDS = (
    "alpha beta cache delta engine filter graph handler index journal kernel ledger "
    "mapper node option parser queue router scanner token update vector worker buffer "
    "config driver event format gateway helper import loader metric network object "
    "policy query record schema stream table upload valid window yield zone account "
    "billing client daemon export fetch health inventory job lookup mailer notify order "
    "payment report search session storage tenant user audit batch"
).split()
AREAS = (  # top-level directory, dominant file kind
    ("crates", "rs"), ("services", "go"), ("web", "ts"), ("tools", "py"),
    ("native", "c"), ("docs", "md"), ("pkg", "go"), ("lib", "py"), ("assets", "bin"),
)
MIN_SIZE, MAX_SIZE = 100, 64 << 10


def blob(path, data, mode="644"):
    out.write(b"M %s inline %s\ndata %d\n" % (mode.encode(), path.encode(), len(data)))
    out.write(data)
    out.write(b"\n")


def size_of():
    # Log-uniform between MIN_SIZE and MAX_SIZE: median ~2.5 KiB, mean ~10 KiB.
    return int(math.exp(math.log(MIN_SIZE) + rng.random() * math.log(MAX_SIZE / MIN_SIZE)))


def ident(i):
    return "%s_%s_%d" % (rng.choice(WORDS), rng.choice(WORDS), i)


# One function per language: (header, function template, comment prefix).
LANG = {
    "rs": ("//! Module {m}: {w} support.\n\nuse std::collections::HashMap;\nuse crate::{w}::Config;\n\n",
           "/// Computes the {w} value for {f}.\npub fn {f}(input: &[u64], limit: u64) -> u64 {{\n"
           "    let mut acc = {k}u64;\n    for v in input.iter().take(limit as usize) {{\n"
           "        acc = acc.wrapping_mul(31).wrapping_add(*v ^ {k});\n    }}\n    acc\n}}\n\n", "// "),
    "py": ('"""Module {m}: {w} helpers."""\n\nimport os\nfrom typing import List\n\n',
           "def {f}(items: List[int], limit: int = {k}) -> int:\n"
           '    """Return the {w} checksum of the first items."""\n    acc = {k}\n'
           "    for v in items[:limit]:\n        acc = (acc * 31 + v) % 1000003\n    return acc\n\n\n", "# "),
    "go": ("// Package {m} implements {w}.\npackage {m}\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n",
           "// {f} computes the {w} value.\nfunc {f}(input []int, limit int) int {{\n\tacc := {k}\n"
           "\tfor i, v := range input {{\n\t\tif i >= limit {{\n\t\t\tbreak\n\t\t}}\n"
           "\t\tacc = acc*31 + v\n\t}}\n\treturn acc\n}}\n\n", "// "),
    "ts": ("// Module {m}: {w} views.\nimport {{ Config }} from \"../{w}/config\";\n\n"
           "export interface {M}Options {{\n  limit: number;\n  name: string;\n}}\n\n",
           "/** Computes the {w} value for {f}. */\nexport function {f}(input: number[], limit = {k}): number {{\n"
           "  let acc = {k};\n  for (const v of input.slice(0, limit)) {{\n    acc = (acc * 31 + v) % 1000003;\n"
           "  }}\n  return acc;\n}}\n\n", "// "),
    "c": ("/* Module {m}: {w} routines. */\n#include <stdint.h>\n#include <string.h>\n#include \"{w}.h\"\n\n",
          "/* Computes the {w} value for {f}. */\nuint64_t {f}(const uint64_t *input, size_t limit)\n{{\n"
          "    uint64_t acc = {k};\n    for (size_t i = 0; i < limit; i++) {{\n"
          "        acc = acc * 31 + input[i];\n    }}\n    return acc;\n}}\n\n", "/* "),
}


def source(ext, target, i):
    header, fn, _ = LANG[ext]
    m = "%s_%d" % (rng.choice(WORDS), i)
    parts = [header.format(m=m, M=m.title().replace("_", ""), w=rng.choice(WORDS))]
    size = len(parts[0])
    n = 0
    while size < target or n < 2:
        n += 1
        text = fn.format(f=ident(n), w=rng.choice(WORDS), k=rng.randrange(1, 10**6))
        parts.append(text)
        size += len(text)
    return "".join(parts).encode()  # whole functions: may overshoot the target a little


def markdown(target, i):
    parts = ["# %s %s\n\n" % (rng.choice(WORDS).title(), rng.choice(WORDS)),
             "This document describes the %s %s and how it relates to the %s.\n\n"
             % (rng.choice(WORDS), rng.choice(WORDS), rng.choice(WORDS))]
    size = sum(map(len, parts))
    n = 0
    while size < target:
        n += 1
        level = "#" * rng.choice((2, 2, 3))
        para = "%s %s %d\n\nThe %s step reads the %s and writes the %s; see `%s` for details.\n\n" % (
            level, rng.choice(WORDS).title(), n, rng.choice(WORDS), rng.choice(WORDS),
            rng.choice(WORDS), ident(i))
        parts.append(para)
        size += len(para)
    return "".join(parts)[:target].encode()


def config(ext, target, i):
    if ext == "json":
        rows = ['  "%s": %d' % (ident(k), rng.randrange(10**6)) for k in range(max(1, target // 28))]
        return ("{\n" + ",\n".join(rows) + "\n}\n").encode()
    if ext == "toml":
        return ("[section_%d]\n" % i + "".join("%s = %d\n" % (ident(k), k) for k in range(max(1, target // 24)))).encode()
    return ("# settings %d\n" % i + "".join("%s: %d\n" % (ident(k), k) for k in range(max(1, target // 24)))).encode()


def binary(target):
    return b"\x89BIN\x00\x01" + rng.randbytes(max(0, target - 6))


# Directory layout: D directories, each area/a/b/c with a digit-derived unique triple;
# some get a fifth level (…/internal), some merge the last two levels (depth 3).
D = max(1, (N - 8) // 20)
per_area = -(-D // len(AREAS))
B = max(2, math.ceil(per_area ** (1 / 3)))
assert B <= len(WORDS)
LEVEL = [rng.sample(WORDS, len(WORDS)) for _ in range(3)]
dirs = []
for d in range(D):
    area, kind = AREAS[d % len(AREAS)]
    q = d // len(AREAS)
    # Each level reads its own permutation of WORDS so names differ between levels.
    a = LEVEL[0][(q // (B * B)) % len(WORDS)]
    b, c = LEVEL[1][(q // B) % B], LEVEL[2][q % B]
    a = "%s%d" % (a, q // (B * B * len(WORDS))) if q >= B * B * len(WORDS) else a
    if d % 5 == 0:
        parts = [area, a, b, c, "internal"]
    elif d % 5 == 1:
        parts = [area, a, "%s-%s" % (b, c)]
    else:
        parts = [area, a, b, c]
    dirs.append(("/".join(parts), kind))

out.write(b"commit refs/heads/main\n")
out.write(b"author RepoCue Bench <bench@repocue.invalid> 1700000000 +0000\n")
out.write(b"committer RepoCue Bench <bench@repocue.invalid> 1700000000 +0000\n")
msg = b"Synthetic benchmark repository (%d files)\n" % N
out.write(b"data %d\n%s\n" % (len(msg), msg))

root = {
    "README.md": (b"# Synthetic workspace\n\nThis repository is a deterministic synthetic code base "
                  b"that RepoCue uses to measure indexing and refresh speed.\n\n## Layout\n\n"
                  + b"".join(b"- `%s/`: %s files\n" % (a.encode(), k.encode()) for a, k in AREAS)),
    "Cargo.toml": (b'[workspace]\nresolver = "2"\nmembers = ["crates/*/*/*"]\n\n[workspace.package]\n'
                   b'version = "0.1.0"\nedition = "2021"\n'),
    "package.json": (b'{\n  "name": "synthetic-workspace",\n  "version": "1.0.0",\n  "private": true,\n'
                     b'  "scripts": { "build": "tsc -p web", "test": "node --test" }\n}\n'),
    ".gitignore": b"target/\nnode_modules/\n*.log\n",
    "LICENSE": b"Synthetic files for benchmarks; no rights reserved.\n",
    "Makefile": b"all:\n\tcargo build --release\n",
    "docs/README.md": b"# Documentation\n\nStart with the area guides below.\n",
    "tools/run.py": b"#!/usr/bin/env python3\nprint('run')\n",
}
written = 0
for path, data in root.items():
    blob(path, data, "755" if path == "tools/run.py" else "644")
    written += 1

# A few big files (1-5 MB): one text log or CSV, the others binary.
big = max(1, round(N / 25000))
remaining = N - written
per_dir = remaining / len(dirs)
EXTS_BY_KIND = {
    "rs": ["rs"] * 14 + ["md", "toml"],
    "go": ["go"] * 14 + ["md", "yaml"],
    "ts": ["ts"] * 11 + ["json", "md", "css"],
    "py": ["py"] * 14 + ["md", "toml"],
    "c": ["c"] * 9 + ["h"] * 4 + ["md"],
    "md": ["md"] * 10 + ["png"],
    "bin": ["png", "bin", "woff2", "json", "svg"],
}
file_index = 0
for di, (dpath, kind) in enumerate(dirs):
    # Spread the remaining files evenly; ~20 per directory.
    count = int((di + 1) * per_dir) - int(di * per_dir)
    for k in range(count):
        file_index += 1
        ext = rng.choice(EXTS_BY_KIND[kind])
        name = "%s_%d.%s" % (rng.choice(WORDS), k, ext)
        path = "%s/%s" % (dpath, name)
        target = size_of()
        mode = "644"
        if file_index <= big:
            target = rng.randrange(1 << 20, 5 << 20)
            ext = "csv" if file_index == 1 else "bin"
            path = "%s/large_%d.%s" % (dpath, file_index, ext)
            data = (b"id,name,value\n" + b"".join(b"%d,%s,%d\n" % (r, ident(r).encode(), r * 7)
                    for r in range(target // 24))) if ext == "csv" else binary(target)
        elif ext in LANG or ext == "h":
            data = source("c" if ext == "h" else ext, target, file_index)
        elif ext == "md":
            data = markdown(target, file_index)
        elif ext in ("json", "toml", "yaml"):
            data = config(ext, target, file_index)
        elif ext in ("css", "svg"):
            data = (".c%d { color: #%06x; }\n" % (file_index, rng.randrange(1 << 24)) * max(1, target // 26)).encode()
        else:
            data = binary(target)
        if ext == "py" and k == 0:
            mode = "755"
            data = b"#!/usr/bin/env python3\n" + data
        blob(path, data, mode)
        written += 1
        if k == 1 and di % 997 == 0 and written < N:
            # Now and then a symlink to a sibling, as real trees have.
            target_name = path.rsplit("/", 1)[1]
            out.write(b"M 120000 inline %s/link_%d\ndata %d\n%s\n"
                      % (dpath.encode(), di, len(target_name), target_name.encode()))
            written += 1
        if written >= N:
            break
    if written >= N:
        break
out.write(b"\ndone\n")
sys.stderr.write("synth: %d paths in %d directories\n" % (written, len(dirs)))
PY

# Write the work tree and the index in one process (parallel checkout on all cores).
git -C "$dir" -c checkout.workers=0 checkout -q -f main
git -C "$dir" log -1 --format='synth: commit %H tree %T' >&2

