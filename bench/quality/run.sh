#!/usr/bin/env bash
# One command for the quality harness:
#   bench/quality/run.sh --bin PATH --work DIR [--source BASE|MIRROR_ROOT] [--repo owner/name ...]
# Clones the pinned repositories into DIR (outside the project), scores every
# view, format and budget, and writes DIR/results/quality.{md,json}.
# See bench/quality/README.md.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 "$here/score.py" "$@"
