#!/usr/bin/env bash
# tests/run_variants.sh <binary> ANY|ANY_MN|TILE_MULTIPLES: run and verify every compiled variant of a
# step (--list-variants) on a few shapes, ragged ones for a step that runs any size. Exit 77 if no GPU.
set -u
exe="$1"; sizes="$2"
if [ "$sizes" = ANY ]; then
  shapes=("1 1 1" "257 385 40" "132 260 36" "200 150 20" "1024 1024 1024")
elif [ "$sizes" = ANY_MN ]; then
  shapes=("1 1 8" "257 385 40" "132 260 32" "200 150 24" "1024 1024 1024")
else
  shapes=("256 128 64" "1024 1024 1024")
fi
ran=0
while read -r variant; do
  for s in "${shapes[@]}"; do
    read -r m n k <<< "$s"
    "$exe" --quiet --iters 0 --variant "$variant" --m "$m" --n "$n" --k "$k" > /dev/null; rc=$?
    [ "$rc" -eq 77 ] && exit 77
    if [ "$rc" -ne 0 ]; then echo "run_variants: --variant $variant ${m}x${n}x${k} exited $rc" >&2; exit 1; fi
    ran=$((ran + 1))
    echo "ok: --variant $variant ${m}x${n}x${k}"
  done
done < <("$exe" --list-variants)
[ "$ran" -gt 0 ] || { echo "run_variants: $exe lists no variants" >&2; exit 1; }
