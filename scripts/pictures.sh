#!/usr/bin/env bash
# Rewrites docs/images/<step>/ from the current binaries, for every registered step (<build>/tut_steps.txt):
# the step's SVGs (--svg) and its C-tile page (--html), for its default problem, thread 0 of CTA (0,0),
# with --print-only (no GPU needed). The test pictures_<step> regenerates them and compares.
# docs/images/perf.svg comes from scripts/plot_bench.py instead.
# Usage: scripts/pictures.sh [build-dir]     (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build"
while read -r step _sizes _input _cc; do
  out="$root/docs/images/$step"
  rm -rf "$out"
  "$build/bin/$step" --print-only --seed 1 --svg "$out" --html "$out/index.html" > /dev/null
  echo "wrote docs/images/$step/: $(cd "$out" && ls | tr '\n' ' ')"
done < "$build/tut_steps.txt"
