#!/usr/bin/env bash
# Installs what the test suite needs beyond Rust and Git: a Python virtual environment with
# the official MCP Python SDK, used as an independent MCP client against `repocue serve`.
# Idempotent; the environment lives under target/ so `cargo clean` removes it.
set -euo pipefail
cd "$(dirname "$0")/.."

MCP_VERSION="2.3.0"
venv="${REPOCUE_TEST_VENV:-target/test-venv}"

if ! command -v git >/dev/null; then
    echo "setup-test-deps: git is required" >&2
    exit 1
fi
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import mcp, sys; sys.exit(0)" 2>/dev/null; then
    exit 0
fi
python=""
# Version-suffixed names may be pyenv shims without an installed interpreter: run each.
for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    echo "setup-test-deps: python3 (3.10+) is required for the MCP client test" >&2
    exit 1
fi
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv"
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"; then
    echo "setup-test-deps: could not install mcp==$MCP_VERSION from PyPI (offline, or no access" \
        "to the package index?). The MCP client test needs it: run this script once with network" \
        "access, or point REPOCUE_TEST_VENV at a virtual environment that has it." >&2
    exit 1
fi
echo "setup-test-deps: MCP client ready in $venv"
