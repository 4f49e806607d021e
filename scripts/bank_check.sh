#!/usr/bin/env bash
# scripts/bank_check.sh <step binary> [flags]: the bank-conflict model against the hardware. Reads the
# printout's "bank conflicts of this run (model): ld <n> st <n> ldgsts <n>" for the run the flags choose,
# runs the same flags under Nsight Compute for l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,
# ldgsts}.sum of the step's kernel, and prints both on one line.
# Exits 0 when they agree, 1 when they differ, 77 when no GPU or no ncu can count (3 instead under
# TUT_REQUIRE_GPU=1), 2 when the step prints no model.
# BANK_CHECK_COUNTERS="ld st" compares only those counters (default: ld st ldgsts); the others are
# printed, not compared. The one use: cp.async's (ldgsts) counts at a ragged edge, where the zero-filling
# copies add a few conflicts that vary from run to run and the model does not count (the step06 page).
set -uo pipefail
exe="${1:?usage: scripts/bank_check.sh <step binary> [flags]}"
shift
skip() { echo "bank_check: $1" >&2; if [ -n "${TUT_REQUIRE_GPU:-}" ] && [ "${TUT_REQUIRE_GPU}" != 0 ]; then exit 3; fi; exit 77; }
model=$("$exe" --print-only --seed 1 "$@" < /dev/null | sed -n 's/^ *bank conflicts of this run (model): //p')
[ -n "$model" ] || { echo "bank_check: $(basename "$exe") $* prints no bank-conflict model" >&2; exit 2; }
command -v ncu > /dev/null || skip "no ncu (Nsight Compute) on PATH"
"$exe" --quiet --iters 0 "$@" > /dev/null 2>&1 < /dev/null
rc=$?
[ "$rc" -eq 77 ] && skip "no usable GPU"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
hw=$(ncu --clock-control none --metrics "$metrics" -k regex:gemm_kernel "$exe" --quiet --iters 0 "$@" 2>&1 < /dev/null |
     awk '{gsub(",", "", $NF)} /op_ld.sum/ {ld=$NF} /op_st.sum/ {st=$NF} /op_ldgsts.sum/ {lg=$NF}
          END {if (ld == "") exit 1; print "ld", ld, "st", st, "ldgsts", lg}')
[ -n "$hw" ] || skip "ncu measured nothing (no permission for the counters?)"
counters="${BANK_CHECK_COUNTERS:-ld st ldgsts}"
value() { echo "$1" | awk -v c="$2" '{for (i = 1; i < NF; i += 2) if ($i == c) print $(i + 1)}'; }
differ=""
for c in $counters; do
  [ "$(value "$model" "$c")" = "$(value "$hw" "$c")" ] || differ+=" $c"
done
what="model $model, ncu $hw (compared: $counters)"
if [ -z "$differ" ]; then
  echo "bank_check $(basename "$exe") $*: $what: AGREE"
  exit 0
fi
echo "bank_check $(basename "$exe") $*: $what: DIFFER in$differ"
exit 1
