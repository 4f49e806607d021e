#!/usr/bin/env bash
# The GPU acceptance run, for a machine with a GPU and a built tree. For every registered step
# (<build>/tut_steps.txt): the GPU tests (verification on many shapes, the owner test, the planted
# faults, every variant) with TUT_REQUIRE_GPU=1, compute-sanitizer (memcheck, racecheck, synccheck) on
# two ragged shapes, Nsight Compute's shared-memory bank-conflict counters against the printout's model
# (scripts/bank_check.sh), and the benchmark against cuBLAS.
# Logs go to <out-dir>; a summary to stdout. Exits non-zero if any test failed or was skipped, if a
# sanitizer reported an error, if a bank-conflict count differs from the model's, or if the benchmark
# found a kernel that differs from cuBLAS.
# Usage: scripts/gpu_check.sh <out-dir> [build-dir]
# GPU_CHECK_PARTS picks the parts, in this order (default: all four): "tests sanitizers ncu bench".
# On a GPU you hold for a short while, with time-limited calls: run "tests sanitizers" in one call and "ncu bench" in the next.
set -uo pipefail
out="${1:?usage: scripts/gpu_check.sh <out-dir> [build-dir]}"
build="$(cd "${2:-build}" && pwd)"
bin="$build/bin"
parts=" ${GPU_CHECK_PARTS:-tests sanitizers ncu bench} "
for part in $parts; do
  case "$part" in tests|sanitizers|ncu|bench) ;; *) echo "gpu_check: unknown part '$part' in GPU_CHECK_PARTS" >&2; exit 2;; esac
done
[ -n "${parts// /}" ] || { echo "gpu_check: GPU_CHECK_PARTS names no part" >&2; exit 2; }
mkdir -p "$out"
log="$out/log.txt"
export TUT_REQUIRE_GPU=1
status=0
nvidia-smi -L | tee -a "$log"
echo "gpu_check parts:$parts" | tee -a "$log"

if [[ "$parts" == *" tests "* ]]; then
  (cd "$build" && ctest -L gpu -j8 --output-on-failure) > "$out/ctest_gpu.txt" 2>&1
  rc=$?
  summary=$(grep -E 'tests passed' "$out/ctest_gpu.txt")
  total=$(echo "$summary" | sed -nE 's/.* out of ([0-9]+).*/\1/p')
  skipped=$(grep -cE '\*\*\*Skipped|Not Run' "$out/ctest_gpu.txt")
  echo "ctest -L gpu: exit $rc; $summary; ran ${total:-0} GPU tests, $skipped skipped" | tee -a "$log"
  if [ "$rc" -ne 0 ] || [ "$skipped" -ne 0 ] || [ "${total:-0}" -eq 0 ]; then status=1; fi
fi

if [[ "$parts" == *" sanitizers "* ]]; then

  while read -r step sizes; do
    case "$sizes" in
      ANY) shapes=("--m 259 --n 131 --k 37" "--m 132 --n 260 --k 36");;
      ANY_MN) shapes=("--m 259 --n 131 --k 200" "--m 132 --n 260 --k 168");;  # several k-tiles: the pipeline runs
      *) shapes=("");;
    esac
    # A step's own shapes, where it declares them (SANITIZE in its add_tutorial_step), replace these.
    mapfile -t own < <(sed -n "s/^$step //p" "$build/tut_sanitize.txt" 2>/dev/null)
    [ "${#own[@]}" -gt 0 ] && shapes=("${own[@]}")
    for shape in "${shapes[@]}"; do
      for tool in memcheck racecheck synccheck; do
        echo "== $tool $step $shape"
        # shellcheck disable=SC2086
        compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin/$step" --quiet --iters 0 --timeout 600 $shape 2>&1 < /dev/null |
          grep -E "SUMMARY|result"
        [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "   FAILED"; status=1; }
      done
    done
  done < "$build/tut_steps.txt" > "$out/sanitizer.txt" 2>&1
  tee -a "$log" < "$out/sanitizer.txt"
  grep -q FAILED "$out/sanitizer.txt" && status=1
fi

# Nsight Compute's bank-conflict counters against the printout's model (scripts/bank_check.sh), for every
# variant of every step that prints one: at 1024^3 and at a ragged size (N and K off the tiles). Any
# disagreement fails the run.
if [[ "$parts" == *" ncu "* ]]; then
  while read -r step sizes; do
    for variant in $("$bin/$step" --list-variants < /dev/null); do
      "$bin/$step" --print-only --variant "$variant" < /dev/null | grep -q "bank conflicts of this run (model)" || continue
      # Ragged: M, N and K off the tiles. There the cp.async steps' zero-filling copies add a few
      # conflicts that vary from run to run and the model does not count: their ldgsts counter is
      # printed, not compared (the step06 page).
      ragged="--m 1000 --n 999 --k 777"
      only="ld st ldgsts"
      [ "$sizes" = ANY_MN ] && ragged="--m 1000 --n 999 --k 776" && only="ld st"
      # shellcheck disable=SC2086
      "$(dirname "$0")/bank_check.sh" "$bin/$step" --variant "$variant" --m 1024 --n 1024 --k 1024 || echo "   FAILED"
      # shellcheck disable=SC2086
      BANK_CHECK_COUNTERS="$only" "$(dirname "$0")/bank_check.sh" "$bin/$step" --variant "$variant" $ragged ||
        echo "   FAILED"
    done
  done < "$build/tut_steps.txt" > "$out/ncu.txt" 2>&1
  tee -a "$log" < "$out/ncu.txt"
  grep -q FAILED "$out/ncu.txt" && status=1
fi

if [[ "$parts" == *" bench "* ]]; then
  "$bin/bench_gemm" --benchmark_min_time=0.2s --benchmark_out="$out/bench.json" --benchmark_out_format=json \
    > "$out/bench.txt" 2>&1
  rc=$?
  echo "bench_gemm: exit $rc" | tee -a "$log"
  [ "$rc" -eq 0 ] || status=1
  grep -E "/(512x512x256|4096x4096x4096|8192x8192x8192|1000x999x77[67])/manual_time" "$out/bench.txt" | tee -a "$log"
fi
echo "gpu_check: $([ $status -eq 0 ] && echo PASS || echo FAIL)" | tee -a "$log"
exit $status
