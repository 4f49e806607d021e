#!/usr/bin/env bash
# tests/bug_catch.sh <check> <root> <binary> --bug NAME [flags]: passes when <check> catches the bug that
# --bug plants (the step's --list-bugs names the check). <root>: the source tree (for scripts/).
#   verification  the run exits 1
#   owner_test    the run (with --owners among the flags) prints "FAIL:" and exits 1
#   memcheck, racecheck
#                 compute-sanitizer --tool <check> reports at least one error or hazard
#   watchdog      the run ends within 60 s with the watchdog's line and exit 3 (or, where the GPU stops
#                 the broken kernel before the watchdog does, with a CUDA error and exit 3)
#   bank_model    scripts/bank_check.sh: Nsight Compute's counters differ from the printout's model
#   sass          no GPU check catches it: the run passes verification (exit 0), as the page says; the
#                 host test bug_<step>_<name>_sass shows the SASS catching it
# Exit 77 (no usable GPU) passes through, so that ctest reports a skip.
set -uo pipefail
check="$1"
root="$2"
shift 2
say() { echo "bug_catch [$check]: $*"; }
run() { "$@" < /dev/null; }

case "$check" in
  verification|sass)
    run "$@" --quiet --iters 0
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    want=1
    [ "$check" = sass ] && want=0
    if [ "$rc" -ne "$want" ]; then say "exited $rc, expected $want"; exit 1; fi
    if [ "$check" = sass ]; then say "verification passes (exit 0): the GPU cannot see this bug; the SASS test can"
    else say "verification caught it: exit 1"; fi
    ;;
  owner_test)
    out=$(run "$@" --quiet --iters 0 2>&1)
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    echo "$out" | grep -E "result|FAIL|stored by" | head -4
    if [ "$rc" -ne 1 ] || ! echo "$out" | grep -q "FAIL:"; then say "exited $rc without a FAIL line"; exit 1; fi
    say "the owner test caught it"
    ;;
  memcheck|racecheck)
    run "$@" --quiet --iters 0 > /dev/null 2>&1
    [ $? -eq 77 ] && exit 77
    command -v compute-sanitizer > /dev/null || { say "no compute-sanitizer on PATH"; exit 1; }
    out=$(run compute-sanitizer --tool "$check" "$@" --quiet --iters 0 --timeout 600 2>&1)
    # "ERROR SUMMARY: 180 errors" (memcheck), "RACECHECK SUMMARY: 32 hazards displayed (...)" (racecheck);
    # not "ERROR SUMMARY: 80 errors were not printed", which counts only those left out of the listing.
    summary=$(echo "$out" | grep -E "(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards)" | grep -v "not printed" | tail -1)
    echo "$summary"
    n=$(echo "$summary" | sed -nE 's/.*SUMMARY: ([0-9]+).*/\1/p')
    if [ -z "$n" ] || [ "$n" -eq 0 ]; then say "compute-sanitizer reported nothing"; exit 1; fi
    say "$check caught it: $n"
    ;;
  watchdog)
    start=$(date +%s)
    err=$(timeout 120 "$@" --quiet --iters 0 2>&1 > /dev/null < /dev/null)
    rc=$?
    took=$(( $(date +%s) - start ))
    [ "$rc" -eq 77 ] && exit 77
    echo "$err" | grep -E "watchdog:|CUDA error:"
    # A broken barrier protocol usually hangs; now and then the GPU stops the kernel with an error
    # instead (seen once for step 09's full_parity_flipped, under the load of the other GPU tests). Both
    # end the run with exit 3 and its line, never with a result: the bug is caught either way.
    if [ "$rc" -eq 3 ] && [ "$took" -le 60 ] && echo "$err" | grep -q "CUDA error:" && ! echo "$err" | grep -q "watchdog:"; then
      say "not a hang this time: the kernel failed with a CUDA error, exit 3 after $took s"; exit 0
    fi
    if [ "$rc" -ne 3 ] || ! echo "$err" | grep -q "watchdog:" || [ "$took" -gt 60 ]; then
      say "exited $rc after $took s, expected the watchdog's line and exit 3 within 60 s"; exit 1
    fi
    say "the watchdog caught it: exit 3 after $took s"
    ;;
  bank_model)
    bash "$root/scripts/bank_check.sh" "$@"
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    if [ "$rc" -ne 1 ]; then say "bank_check exited $rc, expected 1 (the counts differ)"; exit 1; fi
    say "the bank model against Nsight Compute caught it"
    ;;
  *)
    say "unknown check"; exit 2;;
esac
