#!/usr/bin/env bash
# A hands-on exercise: a learner's copy of a step, with the lines that carry its idea blanked.
#   scripts/exercise.sh step07              writes exercises/step07_multistage/ (git ignores exercises/)
#   scripts/exercise.sh step07 --force      writes it again, over your work
#   scripts/exercise.sh step07 --out DIR    writes DIR instead (the build writes its own blank copy so)
#   scripts/exercise.sh --list              the steps that have one
# In the step's sources, `//~ex{ hint` and `//~ex}` enclose the lines that carry the idea; `//~ex= code`
# lines between them hold a placeholder. The copy has, in their place, `// TODO(exercise): hint` and the
# placeholder: it compiles, and computes the wrong thing. The build then has <step>_exercise, built from
# your copy, and `ctest -L exercise -R <step>` checks it with the step's own tests (its host tests, its
# printout and, where there is a GPU, verification). The solution is the step's own code.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { echo "usage: scripts/exercise.sh <step> [--force] [--out DIR] | --list   e.g. step07" >&2; exit 2; }
steps_with_exercise() { (cd "$root" && grep -l '^[[:space:]]*//~ex{' step[0-9]*/* 2>/dev/null | cut -d/ -f1 | sort -u); }
[ $# -ge 1 ] || usage
if [ "$1" = --list ]; then steps_with_exercise; exit 0; fi
step="$1"; shift
force=0; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --out) [ $# -ge 2 ] || usage; out="$2"; shift ;;
    *) usage ;;
  esac
  shift
done
num=${step#step}; num=${num%%_*}  # 07, step07 or step07_multistage
dir=$(cd "$root" && ls -d step"$num"_* 2>/dev/null | head -n1 || true)
[ -n "$dir" ] || { echo "exercise: no step folder matches '$step'" >&2; exit 2; }
steps_with_exercise | grep -qx "$dir" || {
  echo "exercise: $dir has no hands-on exercise; these do: $(steps_with_exercise | tr '\n' ' ')" >&2; exit 2; }
learner=0
[ -n "$out" ] || { out="$root/exercises/$dir"; learner=1; }
if [ -e "$out" ] && [ $force = 0 ]; then
  echo "exercise: $out exists (your work?); --force writes a blank copy over it" >&2; exit 2
fi
mkdir -p "$out"
/usr/bin/python3 - "$root/scripts" "$root/$dir" "$out" <<'PY'
import os, shutil, sys
sys.path.insert(0, sys.argv[1])
from lesson_view import exercise_blanked
src, out = sys.argv[2], sys.argv[3]
for name in sorted(os.listdir(src)):
    path = os.path.join(src, name)
    if not os.path.isfile(path):
        continue
    try:
        copy, _ = exercise_blanked(open(path, encoding="utf-8").read().split("\n"), path)
    except ValueError as e:
        sys.exit(f"exercise: {e}")
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write("\n".join(copy))
    shutil.copymode(path, os.path.join(out, name))
PY
if [ $learner = 1 ]; then
  cat <<MSG
Wrote exercises/$dir/: $dir with its idea blanked (grep -n 'TODO(exercise)' exercises/$dir/*).
Fill in the TODOs, then build and check your copy (the build finds it by itself):
  cmake --build build --target ${dir}_exercise
  ctest --test-dir build -L exercise -R ${dir%%_*}_exercise --output-on-failure
  build/bin/${dir}_exercise          # your kernel's printout and verification
The solution is $dir/ itself; its page shows it folded.
MSG
fi
