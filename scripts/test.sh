#!/usr/bin/env bash
# Set up, build, and run every test: host tests, goldens, command-line checks, docs, and the GPU tests
# (label gpu), which report "skipped" where there is no GPU. Extra arguments go to ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
