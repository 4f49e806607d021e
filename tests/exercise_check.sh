#!/usr/bin/env bash
# The checks of one copy of a step (its own folder, an exercise's blank copy, or a learner's copy):
#   tests/exercise_check.sh [--expect-fail] host TESTS STEP GOLDEN
#       TESTS, the step's Catch2 host tests built against the copy, and STEP --print-only --seed 1
#       against GOLDEN, the step's golden printout;
#   tests/exercise_check.sh [--expect-fail] gpu STEP
#       verification: STEP at its default size and at 2048x2048x256 (more tiles than an H100 has SMs,
#       so that each persistent CTA takes several).
# Exit 0 when the checks hold, 1 when one fails, 77 when there is no GPU for the gpu part (with
# TUT_REQUIRE_GPU=1: 1). --expect-fail turns the verdict round for a blank copy, which must fail: 0 when
# a check fails, 1 when they all hold; 77 stays 77.
set -uo pipefail
expect_fail=0
[ "${1:-}" = --expect-fail ] && { expect_fail=1; shift; }
usage() { echo "usage: exercise_check.sh [--expect-fail] host TESTS STEP GOLDEN | gpu STEP" >&2; exit 2; }
verdict() {  # 0: the checks held; 1: one failed
  if [ "$1" = 0 ]; then echo "exercise_check: the $part checks hold"; else echo "exercise_check: a $part check fails"; fi
  [ $expect_fail = 1 ] && echo "exercise_check: (a blank copy must fail them)"
  exit $(( $1 ^ expect_fail ))
}
log=$(mktemp); trap 'rm -f "$log"' EXIT
part="${1:-}"
case "$part" in
host)
  [ $# -eq 4 ] || usage
  if ! "$2" > "$log" 2>&1; then
    grep -E "FAILED|with expansion|test cases" "$log" | head -12
    echo "exercise_check: the host tests fail"
    verdict 1
  fi
  if ! "$3" --print-only --seed 1 > "$log" 2>&1 || ! diff "$log" "$4" > /dev/null; then
    diff "$log" "$4" | head -12
    echo "exercise_check: the printout differs from $(basename "$4") (< this copy's, > the step's)"
    verdict 1
  fi
  verdict 0 ;;
gpu)
  [ $# -eq 2 ] || usage
  for shape in "" "--m 2048 --n 2048 --k 256"; do
    # shellcheck disable=SC2086
    "$2" --quiet --iters 0 $shape > "$log" 2>&1
    rc=$?
    tail -n 3 "$log"
    if [ $rc -eq 77 ]; then
      [ "${TUT_REQUIRE_GPU:-0}" = 1 ] && { echo "exercise_check: TUT_REQUIRE_GPU=1 and no usable GPU"; exit 1; }
      exit 77
    fi
    [ $rc -eq 0 ] || { echo "exercise_check: verification ${shape:-at the default size} fails (exit $rc)"; verdict 1; }
  done
  verdict 0 ;;
*) usage ;;
esac
