#!/usr/bin/env bash
# Set up (only what is missing), configure and build. Used by run_all.sh and test.sh.
# BUILD_DIR overrides the build folder (default: build); extra arguments go to CMake's configure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
export PATH="$PATH:/usr/local/cuda/bin"
gen=(); command -v ninja >/dev/null 2>&1 && [ ! -f "$build/CMakeCache.txt" ] && gen=(-G Ninja)
cmake -S "$root" -B "$build" "${gen[@]}" "$@"
cmake --build "$build" --parallel "$(nproc)"
