#!/usr/bin/env bash
# Rewrites tests/golden/*.txt from the current binaries, as the build lists them (<build>/tut_goldens.txt,
# written by tut_register_steps() from the add_tutorial_step() calls), and docs/sass/*.txt (--sass).
# Usage: scripts/regen_golden.sh [build-dir]     (default: build)
# Then the pages that quote them (scripts/gen_pages.py). Review `git diff tests/golden docs` before
# committing: every change there is a change in what learners see.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build"
while read -r step file args; do
  # shellcheck disable=SC2086
  "$build/bin/$step" $args > "$root/tests/golden/$file.txt"
  echo "wrote tests/golden/$file.txt"
done < "$build/tut_goldens.txt"
# The SASS each page shows (--sass): counts from this build's nvcc, so not goldens that a test compares;
# the SASS tests check what matters (every class present, no spills) on any toolkit.
mkdir -p "$root/docs/sass"
while read -r step sizes; do
  "$build/bin/$step" --sass > "$root/docs/sass/$step.txt" || true
  echo "wrote docs/sass/$step.txt"
done < "$build/tut_steps.txt"
/usr/bin/env python3 "$root/scripts/gen_pages.py" "$build"
