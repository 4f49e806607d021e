#!/usr/bin/env bash
# Show what one step adds to the step before it: scripts/diff_steps.sh 01 02  (or full folder names).
# Files are compared by name (config.hpp with config.hpp, ...); the namespace rename is left out.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
resolve() {
  local d; d=$(cd "$root" && ls -d step"$1"* step"${1#step}" 2>/dev/null | head -n1 || true)
  [ -n "$d" ] && [ -d "$root/$d" ] || { echo "diff_steps: no step folder matches '$1'" >&2; exit 2; }
  echo "$d"
}
[ $# -eq 2 ] || { echo "usage: scripts/diff_steps.sh <from> <to>   e.g. 01 02" >&2; exit 2; }
a=$(resolve "$1"); b=$(resolve "$2")
na=${a%%_*}; nb=${b%%_*}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/$a" "$tmp/$b"
# Normalise the step's own names so only the idea shows.
for f in "$root/$a"/*; do sed -e "s/\b$na\b/stepNN/g; s/\b$a\b/stepNN/g" "$f" > "$tmp/$a/$(basename "$f" | sed "s/$a/stepNN/")"; done
for f in "$root/$b"/*; do sed -e "s/\b$nb\b/stepNN/g; s/\b$b\b/stepNN/g" "$f" > "$tmp/$b/$(basename "$f" | sed "s/$b/stepNN/")"; done
cd "$tmp"
if [ -t 1 ]; then color=(--color=always); else color=(); fi
diff -ru "${color[@]}" "$a" "$b" || true
