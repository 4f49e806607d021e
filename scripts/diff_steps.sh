#!/usr/bin/env bash
# The lesson: what one step adds to the step before it.
#   scripts/diff_steps.sh 01 02           the diff (or full folder names), kernel.cuh and config.hpp first
#   scripts/diff_steps.sh --stat 02 03    per file, how many lines the two steps share
#   scripts/diff_steps.sh --lines 12 13   one line: kernel+config K  step-only S  elsewhere E
# Files are compared by name (config.hpp with config.hpp, ...). The step's own names ("step02", "Step 02",
# "step 02", "step-02", "step02_local_tile") are normalised away, and so are the lines a source tags for something other than
# the lesson: the lines tagged `//~bug` (a planted bug's) or `//~stress` (the --stress hooks), and the
# exercise markers, as scripts/lesson_view.py says; and the excerpt markers (`//! [tag]`), which mark
# what the pages quote. None of them shows here: the code as written does. Nor do changes of
# indentation alone (diff -b): when a step wraps code in a new loop, the lines it re-indents are the
# same lines, and the loop is the change. --all-space (first) shows and counts them too. The diff is the
# smallest one (diff -d).
# --lines counts the changed lines (+ and -): K those of kernel.cuh and config.hpp; S those of the files
# that differ in every step by design (step.cpp: what only this step prints, its bugs, its SASS classes;
# what_is_new.hpp, derivation.hpp: the helpers of its section 4; pictures.cpp: its own pictures);
# E those of every other file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=diff
ws=-b  # a line only re-indented (code moved into a new loop) is the same line: --all-space counts it
case "${1:-}" in --all-space) ws=; shift ;; esac
case "${1:-}" in --stat) mode=stat; shift ;; --lines) mode=lines; shift ;; esac
resolve() {
  local d; d=$(cd "$root" && ls -d step"$1"* step"${1#step}" 2>/dev/null | head -n1 || true)
  [ -n "$d" ] && [ -d "$root/$d" ] || { echo "diff_steps: no step folder matches '$1'" >&2; exit 2; }
  echo "$d"
}
[ $# -eq 2 ] || { echo "usage: scripts/diff_steps.sh [--all-space] [--stat | --lines] <from> <to>   e.g. 01 02" >&2; exit 2; }
a=$(resolve "$1"); b=$(resolve "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
normalise() {  # <step folder> <out folder>
  local d="$1" n="${1%%_*}"; local num="${n#step}"
  mkdir -p "$2"
  for f in "$root/$d"/*; do
    "$root/scripts/lesson_view.py" "$f" | sed -e '/^[[:space:]]*\/\/[!\/] \[[A-Za-z0-9_-]*\][[:space:]]*$/d' \
      -e "s/\b$d\b/stepNN/g; s/\b$n\b/stepNN/g; s/\b\([Ss]tep\)\([ -]\)$num\b/\1\2NN/g" \
      > "$2/$(basename "$f" | sed "s/$d/stepNN/")"
  done
}
normalise "$a" "$tmp/$a"
normalise "$b" "$tmp/$b"
cd "$tmp"
files=$( (ls "$a"; ls "$b") | sort -u | awk '/^kernel.cuh$/{print 0, $0; next} /^config.hpp$/{print 1, $0; next} {print 2, $0}' |
  sort -k1,1n -k2 | cut -d' ' -f2)
# The lines of file $1 only one side has (a file only one step has: all of its lines).
changed() {
  local f="$1"
  if [ -f "$a/$f" ] && [ -f "$b/$f" ]; then diff -d $ws "$a/$f" "$b/$f" | grep -c '^[<>]' || true
  elif [ -f "$a/$f" ]; then wc -l < "$a/$f"
  else wc -l < "$b/$f"; fi
}
case "$mode" in
stat)
  # shared = lines common to both (longest common subsequence, by diff) / lines of the two, averaged.
  printf '%-22s %6s %6s %7s %7s\n' file "$a" "$b" common shared
  for f in $files; do
    # A file only one step has counts 0 lines in the other (and shares nothing with it).
    la=0; lb=0; [ -f "$a/$f" ] && la=$(wc -l < "$a/$f"); [ -f "$b/$f" ] && lb=$(wc -l < "$b/$f")
    added=$lb; [ -f "$a/$f" ] && [ -f "$b/$f" ] && added=$(diff -d $ws "$a/$f" "$b/$f" | grep -c '^>' || true)
    common=$((lb - added))
    printf '%-22s %6d %6d %7d %6d%%\n' "$f" "$la" "$lb" "$common" $((200 * common / (la + lb)))
  done ;;
lines)
  k=0; s=0; e=0
  for f in $files; do
    n=$(changed "$f")
    case "$f" in
      kernel.cuh|config.hpp) k=$((k + n)) ;;
      step.cpp|pictures.cpp|what_is_new.hpp|derivation.hpp) s=$((s + n)) ;;
      *) e=$((e + n)) ;;
    esac
  done
  printf 'kernel+config %d  step-only %d  elsewhere %d\n' "$k" "$s" "$e" ;;
diff)
  if [ -t 1 ]; then color=(--color=always); else color=(); fi
  for f in $files; do
    diff -u -d -N $ws "${color[@]}" --label "$a/$f" --label "$b/$f" "$a/$f" "$b/$f" || true
  done ;;
esac
