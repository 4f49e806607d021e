#!/usr/bin/env python3
"""The steady state of a step's configurations: at each shape, each configuration runs alone for about SECONDS of
back-to-back launches (the step's --iters), one after another, so that the GPU sits at its power limit; the
step's own timing line gives the mean time per launch. Where nvidia-smi is found, the GPU's power and SM clock
are sampled every 100 ms and averaged over the last half of each run's launches. Needs a GPU.

    scripts/steady_sweep.py --binary build/bin/step15_cluster --out <json> [--seconds 1.2] [--variants a,b] MxNxK [...]

The JSON holds the GPU, the command, and one row per run: variant, m, n, k, iters, ms_per_launch, pass, and
power_w and sm_mhz (absent without nvidia-smi). scripts/fit_costs.py fits step 15's k-tile factors at the
power limit (kPowerFactor) from it.
"""
import argparse
import datetime
import json
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time


def sampler():
    """Start nvidia-smi sampling power and SM clock every 100 ms; returns (samples, process), each sample
    (arrival time, watts, MHz), or ([], None) without nvidia-smi."""
    if not shutil.which("nvidia-smi"):
        return [], None
    proc = subprocess.Popen(["nvidia-smi", "--query-gpu=power.draw,clocks.sm", "--format=csv,noheader,nounits",
                             "-lms", "100"], stdout=subprocess.PIPE, text=True)
    samples = []

    def read():
        for line in proc.stdout:
            try:
                watts, mhz = (float(x) for x in line.split(","))
            except ValueError:
                continue
            samples.append((time.monotonic(), watts, mhz))

    threading.Thread(target=read, daemon=True).start()
    return samples, proc


def gpu():
    """The GPU's name, power limit and top SM clock (nvidia-smi), or {} without nvidia-smi."""
    if not shutil.which("nvidia-smi"):
        return {}
    out = subprocess.run(["nvidia-smi", "--query-gpu=name,power.limit,clocks.max.sm", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.splitlines()[0]
    name, watts, mhz = (x.strip() for x in out.split(","))
    return {"name": name, "power_limit_w": float(watts), "max_sm_mhz": float(mhz)}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="the step's executable")
    ap.add_argument("--out", required=True, help="the JSON to write")
    ap.add_argument("--seconds", type=float, default=1.2, help="back-to-back launches per run, in seconds")
    ap.add_argument("--variants", help="comma-separated configurations to run (default: every one the step has)")
    ap.add_argument("shapes", nargs="+", help="MxNxK")
    a = ap.parse_args(argv[1:])
    shapes = []
    for s in a.shapes:
        if not re.fullmatch(r"\d+x\d+x\d+", s):
            ap.error(f"a shape is MxNxK, got '{s}'")
        shapes.append(tuple(int(x) for x in s.split("x")))
    variants = subprocess.run([a.binary, "--list-variants"], capture_output=True, text=True, check=True).stdout.split()
    if a.variants:
        unknown = sorted(set(a.variants.split(",")) - set(variants))
        if unknown:
            ap.error(f"no configuration {', '.join(unknown)} in {a.binary} (it has {' '.join(variants)})")
        variants = [v for v in variants if v in a.variants.split(",")]
    samples, smi = sampler()
    context = {"gpu": gpu(), "date": datetime.date.today().isoformat(), "seconds": a.seconds,
               "command": " ".join(pathlib.Path(x).name if i == 0 else x for i, x in enumerate(argv))}
    runs = []
    for m, n, k in shapes:
        # --iters for about a.seconds at 600 TFLOP/s, the order of the steady state of these kernels
        iters = min(100000, max(50, int(a.seconds / (2 * m * n * k / 600e12))))
        for v in variants:
            cmd = [a.binary, "--quiet", "--seed", "1", "--iters", str(iters), "--m", str(m), "--n", str(n),
                   "--k", str(k), "--variant", v]
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
            end = time.monotonic()
            ms = re.search(r"([0-9.]+) ms per launch", out)
            row = {"variant": v, "m": m, "n": n, "k": k, "iters": iters,
                   "ms_per_launch": float(ms.group(1)) if ms else None, "pass": "PASS" in out}
            if ms:
                half = float(ms.group(1)) * iters / 2000
                last = [s for s in samples if end - half <= s[0] <= end]
                if last:
                    row["power_w"] = round(sum(s[1] for s in last) / len(last), 1)
                    row["sm_mhz"] = round(sum(s[2] for s in last) / len(last))
            runs.append(row)
            pathlib.Path(a.out).write_text(json.dumps({"context": context, "runs": runs}, indent=1) + "\n")  # so far
            print(f"{m}x{n}x{k} {v:10s} {row['ms_per_launch']} ms {'PASS' if row['pass'] else 'FAIL'} "
                  f"{row.get('power_w', '-')} W {row.get('sm_mhz', '-')} MHz", flush=True)
    if smi:
        smi.terminate()
    return 0 if runs and all(r["pass"] and r["ms_per_launch"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
