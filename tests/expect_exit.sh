#!/usr/bin/env bash
# tests/expect_exit.sh <rc> <binary> <args...>: passes when the binary exits with <rc> (a planted fault
# must give 1, "wrong result"); exit 77 (no usable GPU) passes through so that ctest reports a skip.
want="$1"; shift
"$@"; rc=$?
[ "$rc" -eq 77 ] && exit 77
if [ "$rc" -ne "$want" ]; then
  echo "expect_exit: '$*' exited $rc, expected $want" >&2
  exit 1
fi
echo "expect_exit: exited $rc, as expected"
