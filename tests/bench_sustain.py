#!/usr/bin/env python3
"""bench_gemm --sustain holds a kernel against the fastest baseline at the power limit.

    tests/bench_sustain.py BENCH_GEMM

Runs the baselines of the Hopper steps' problem (fp16 in, fp32 out) and, with --control, the tuned cuBLASLt
timed as if it were a kernel, at 4096^3 with --sustain in segments of 2 s (about a minute), and reads the JSON:
- the control's label names the baseline it was held against ("sustained vs <baseline>"), one that ran;
- its sustained ratios are positive, and min <= median <= max;
- the ratio is at most 1.05: cuBLASLt is itself among the baselines, so the fastest of them at the power
  limit takes at most as long as the control, up to the noise (bench/README.md). Held against a slower
  baseline, the ratio would exceed 1 by as much as that baseline is slower.
Exit 0 pass, 1 fail, 77 when there is no GPU (bench_gemm says so and times nothing; with TUT_REQUIRE_GPU=1 it
exits 3, a failure).
"""
import json
import subprocess
import sys

LIMIT = 1.05  # the noise of one run's ratios (bench/README.md, --control)


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    cmd = [argv[1], "--sizes=4096x4096x4096", "--rounds=3", "--sustain=2", "--control",
           "--benchmark_filter=fp16_TN/", "--benchmark_format=json"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode == 0 and "no usable GPU" in run.stdout:
        print(run.stdout.strip())
        return 77
    if run.returncode != 0:
        print(f"bench_gemm exited {run.returncode}:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
        return 1
    entries = json.loads(run.stdout)["benchmarks"]
    baselines = {"cuBLAS" if e["name"].startswith("cublas_") else
                 "cuBLASLt" if e["name"].startswith("cublasLt_") else
                 "CUTLASS " + e["name"].split("/")[0][len("cutlass_"):-len("_fp16_TN")]
                 for e in entries if e["name"].startswith(("cublas", "cutlass_"))}
    control = [e for e in entries if e["name"].startswith("control_cuBLASLt_fp16_TN/")]
    if len(control) != 1 or "sustain_ratio" not in control[0]:
        print(f"expected one control entry with sustain_ratio, got {[e['name'] for e in control]}")
        return 1
    c = control[0]
    label, lo, mid, hi = c.get("label", ""), c["sustain_ratio_min"], c["sustain_ratio"], c["sustain_ratio_max"]
    print(f"control: {label}: {mid:.3f} ({lo:.3f}..{hi:.3f}); baselines that ran: {sorted(baselines)}")
    against = label[len("sustained vs "):] if label.startswith("sustained vs ") else None
    failures = []
    if against not in baselines:
        failures.append(f"the label '{label}' names no baseline that ran")
    if not 0 < lo <= mid <= hi:
        failures.append("the ratios are not positive with min <= median <= max")
    if not mid <= LIMIT:
        failures.append(f"the control is {mid:.3f} of the baseline it was held against, above {LIMIT}: "
                        "that baseline is not the fastest at the power limit")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
