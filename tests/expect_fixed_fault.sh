#!/usr/bin/env bash
# tests/expect_fixed_fault.sh <binary> <flags>: plants --inject fixed-error (2^-13 of an entry's sum of
# |products|, whatever the tolerance) and expects the verdict the step's input type calls for: an fp32
# step's tolerance must reject it (exit 1), an fp16 step's, 2^-11 at K = 4096, accepts it (exit 0). Run at
# K = 4096, an fp32 step verified with the fp16 tolerance would pass, and this test would fail.
# Exit 77 (no usable GPU) passes through.
exe="$1"
shift
out=$("$exe" --quiet --iters 0 --inject fixed-error "$@" < /dev/null 2>&1)
rc=$?
[ "$rc" -eq 77 ] && exit 77
echo "$out" | grep -E "fault|result|max error" | head -4
case "$out" in
  *"fp32 in"*) want=1; type=fp32;;
  *"fp16 in"*) want=0; type=fp16;;
  *) echo "expect_fixed_fault: the printout names no input type" >&2; exit 1;;
esac
if [ "$rc" -ne "$want" ]; then
  echo "expect_fixed_fault: an $type step exited $rc on the fixed fault, expected $want" >&2
  exit 1
fi
echo "expect_fixed_fault: $type step, exit $rc, as expected"
