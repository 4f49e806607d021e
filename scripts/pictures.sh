#!/usr/bin/env bash
# Rewrites docs/images/<step>/ from the current binaries, for every registered step (<build>/tut_steps.txt):
# the step's SVGs (--svg) and its C-tile page (--html), for its default problem, thread 0 of CTA (0,0),
# with --print-only (no GPU needed). The test pictures_<step> regenerates them and compares.
# docs/images/ladder.svg (the speed ladder) comes from scripts/plot_bench.py instead.
# Usage: scripts/pictures.sh [build-dir]     (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
while read -r step _sizes; do
  # Into a fresh folder first: a step that fails leaves docs/images as it was.
  "$build/bin/$step" --print-only --seed 1 --svg "$tmp/$step" --html "$tmp/$step/index.html" > /dev/null < /dev/null
  rm -rf "$root/docs/images/$step"
  mv "$tmp/$step" "$root/docs/images/$step"
  echo "wrote docs/images/$step/: $(cd "$root/docs/images/$step" && ls | tr '\n' ' ')"
done < "$build/tut_steps.txt"
