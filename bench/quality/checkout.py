#!/usr/bin/env python3
"""Clone every repository of repos.toml at its pinned commit into a work dir.

    checkout.py --work DIR [--source BASE] [--repo owner/name ...]

--source is either a base URL (default https://github.com: clones
BASE/<owner>/<name>.git) or a local mirror root laid out as
<root>/<owner>+<name>/repo (a bare or non-bare Git repository). Checkouts land
in DIR/repos/<owner>+<name>/<name> (the last component is the repository's own
name, as a contributor's clone would be). Nothing is written into this project.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = "https://github.com"


def load_repos(only: list[str] | None = None) -> list[dict]:
    with open(os.path.join(HERE, "repos.toml"), "rb") as handle:
        repos = tomllib.load(handle)["repo"]
    if only:
        unknown = sorted(set(only) - {r["name"] for r in repos})
        if unknown:
            raise SystemExit(f"unknown repositories: {', '.join(unknown)}")
        repos = [r for r in repos if r["name"] in only]
    return repos


def slug(name: str) -> str:
    return name.replace("/", "+")


def source_url(source: str, name: str) -> str:
    if os.path.isdir(source):
        path = os.path.join(source, slug(name), "repo")
        if not os.path.isdir(path):
            raise SystemExit(f"{name}: no mirror at {path}")
        return path
    return f"{source.rstrip('/')}/{name}.git"


def git(*args: str, cwd: str | None = None, quiet: bool = False) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}: {result.stderr.strip()}")
    return result.stdout


def checkout_dir(work: str, name: str) -> str:
    return os.path.join(os.path.abspath(work), "repos", slug(name), name.split("/")[1])


def ensure_checkout(work: str, source: str, repo: dict) -> str:
    """Clone (once) and reset the checkout to the pinned commit, clean."""
    name, commit = repo["name"], repo["commit"]
    path = checkout_dir(work, name)
    if not os.path.isdir(os.path.join(path, ".git")):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        print(f"[checkout] cloning {name} from {source_url(source, name)}", file=sys.stderr)
        git("clone", "-q", "--no-checkout", source_url(source, name), path)
    has = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=path,
                         capture_output=True).returncode == 0
    if not has:
        git("fetch", "-q", "origin", commit, cwd=path)
    reset(path, commit)
    return path


def reset(path: str, commit: str) -> None:
    """Back to the pinned commit with no local change and no untracked file."""
    git("reset", "-q", "--hard", commit, cwd=path)
    git("clean", "-q", "-fd", cwd=path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", required=True)
    parser.add_argument("--source", default=DEFAULT_SOURCE)
    parser.add_argument("--repo", action="append")
    args = parser.parse_args()
    for repo in load_repos(args.repo):
        print(ensure_checkout(args.work, args.source, repo))


if __name__ == "__main__":
    main()
