#!/usr/bin/env bash
# The GPU acceptance run, for a machine with a GPU and a built tree:
#   GPU tests, compute-sanitizer (memcheck, racecheck) on ragged shapes, Nsight Compute's shared-memory
#   bank-conflict counters, and the benchmark against cuBLAS. Logs go to <out-dir>; a summary to stdout.
# Usage: scripts/gpu_check.sh <out-dir> [build-dir]
set -uo pipefail
out="${1:?usage: scripts/gpu_check.sh <out-dir> [build-dir]}"
build="$(cd "${2:-build}" && pwd)"
bin="$build/bin"
mkdir -p "$out"
log="$out/log.txt"
nvidia-smi -L | tee "$log"

(cd "$build" && ctest -L gpu -j6 --output-on-failure) > "$out/ctest_gpu.txt" 2>&1
echo "ctest -L gpu: exit $?; $(grep -E 'tests passed' "$out/ctest_gpu.txt")" | tee -a "$log"

{ "$bin/step01_naive"; echo "exit $?"; "$bin/step01_naive" --thread 17 --block 1,0; echo "exit $?"; } > "$out/step01.txt" 2>&1

for step in step02_local_tile step03_smem_tiling; do
  for shape in "--m 259 --n 131 --k 37" "--m 132 --n 260 --k 36"; do
    for tool in memcheck racecheck; do
      echo "== $tool $step $shape"
      compute-sanitizer --tool "$tool" "$bin/$step" --quiet --iters 0 $shape 2>&1 | grep -E "SUMMARY|result"
    done
  done
done > "$out/sanitizer.txt" 2>&1
tee -a "$log" < "$out/sanitizer.txt"

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
for shape in "--m 1024 --n 1024 --k 1024" "--m 1024 --n 1023 --k 1024"; do
  echo "== ncu step03_smem_tiling $shape"
  ncu --clock-control none --metrics "$metrics" -k regex:gemm_kernel "$bin/step03_smem_tiling" --quiet --iters 0 \
    $shape 2>&1 | grep -E "gemm_kernel|bank_conflicts"
done > "$out/ncu.txt" 2>&1
tee -a "$log" < "$out/ncu.txt"

"$bin/bench_gemm" --benchmark_min_time=0.2 --benchmark_out="$out/bench.json" --benchmark_out_format=json \
  > "$out/bench.txt" 2>&1
echo "bench_gemm: exit $?" | tee -a "$log"
grep -E "/(4096x4096x4096|1000x999x777)/" "$out/bench.txt" | tee -a "$log"
