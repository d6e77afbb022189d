#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust and Git. Idempotent; safe to run often.
set -euo pipefail
if ! command -v git >/dev/null; then
    echo "git is required" >&2
    exit 1
fi
