#!/usr/bin/env bash
# Show what one step adds to the step before it: scripts/diff_steps.sh 01 02  (or full folder names).
# Files are compared by name (config.hpp with config.hpp, ...), kernel.cuh and config.hpp first; the
# step's own names ("step02", "Step 02", "step02_local_tile") are normalised away so only the idea shows.
# --stat prints, per file, how many lines the two steps share instead of the diff.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stat=0
if [ "${1:-}" = --stat ]; then stat=1; shift; fi
resolve() {
  local d; d=$(cd "$root" && ls -d step"$1"* step"${1#step}" 2>/dev/null | head -n1 || true)
  [ -n "$d" ] && [ -d "$root/$d" ] || { echo "diff_steps: no step folder matches '$1'" >&2; exit 2; }
  echo "$d"
}
[ $# -eq 2 ] || { echo "usage: scripts/diff_steps.sh [--stat] <from> <to>   e.g. 01 02" >&2; exit 2; }
a=$(resolve "$1"); b=$(resolve "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
normalise() {  # <step folder> <out folder>
  local d="$1" n="${1%%_*}"; local num="${n#step}"
  mkdir -p "$2"
  for f in "$root/$d"/*; do
    sed -e "s/\b$d\b/stepNN/g; s/\b$n\b/stepNN/g; s/\bStep $num\b/Step NN/g" "$f" \
      > "$2/$(basename "$f" | sed "s/$d/stepNN/")"
  done
}
normalise "$a" "$tmp/$a"
normalise "$b" "$tmp/$b"
cd "$tmp"
files=$( (ls "$a"; ls "$b") | sort -u | awk '/^kernel.cuh$/{print 0, $0; next} /^config.hpp$/{print 1, $0; next} {print 2, $0}' |
  sort -k1,1n -k2 | cut -d' ' -f2)
if [ "$stat" -eq 1 ]; then
  # shared = lines common to both (longest common subsequence, by diff) / lines of the two, averaged.
  printf '%-22s %6s %6s %7s %7s\n' file "$a" "$b" common shared
  for f in $files; do
    # A file only one step has counts 0 lines in the other (and shares nothing with it).
    la=0; lb=0; [ -f "$a/$f" ] && la=$(wc -l < "$a/$f"); [ -f "$b/$f" ] && lb=$(wc -l < "$b/$f")
    added=$lb; [ -f "$a/$f" ] && [ -f "$b/$f" ] && added=$(diff "$a/$f" "$b/$f" | grep -c '^>' || true)
    common=$((lb - added))
    printf '%-22s %6d %6d %7d %6d%%\n' "$f" "$la" "$lb" "$common" $((200 * common / (la + lb)))
  done
  exit 0
fi
if [ -t 1 ]; then color=(--color=always); else color=(); fi
for f in $files; do
  diff -u "${color[@]}" --label "$a/$f" --label "$b/$f" "$a/$f" "$b/$f" 2>/dev/null || true
done
