#!/usr/bin/env bash
# The whole tutorial: set up, build, then run every step in order (trace, GPU run, verification, time).
# Without a GPU each step prints its trace and reports "no usable GPU" (exit 77); that is not a failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
failed=0
for dir in "$root"/step[0-9][0-9]_*/; do
  step="$(basename "$dir")"
  [ -x "$build/bin/$step" ] || continue
  if [ -t 1 ]; then printf '\n\033[1m########## %s ##########\033[0m\n' "$step"; else printf '\n########## %s ##########\n' "$step"; fi
  rc=0; "$build/bin/$step" "$@" || rc=$?
  case $rc in
    0) ;;
    77) echo "($step: no usable GPU, trace only)";;
    *) echo "$step: FAILED with exit code $rc"; failed=1;;
  esac
done
exit $failed
