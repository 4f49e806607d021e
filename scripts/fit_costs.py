#!/usr/bin/env python3
"""Step 15's costs (step15_cluster/config.hpp: kCost, kKTileFactor, kRaggedFactor, kPowerFactor; step 16's
config.hpp holds a copy), fitted from the sweeps that measured them, so that a new GPU or a new kernel can
have its own.

    scripts/fit_costs.py            # print the four tables, as config.hpp writes them
    scripts/fit_costs.py --check    # exit 1 unless both config.hpp hold what the sweeps give

SWEEP and RAGGED are bench_gemm runs of every configuration in interleaved rounds (`--rounds=5`), whose
counter `ms_rounds` is a configuration's median time per launch there:

    bench_gemm --sizes=<shapes> --benchmark_filter='step15_cluster/' --rounds=5 --benchmark_out=<json>

STEADY is every configuration alone, for 1.2 s of back-to-back launches each, at the power limit:

    scripts/steady_sweep.py --binary build/bin/step15_cluster --out <json> <shapes>

- SWEEP: 32 shapes. Per configuration, a least-squares fit, in ns, of
  t = T·(k·k_tile + tile) + launch over the 22 shapes with K a multiple of 64 (M and N multiples of 128
  in all of them), where T is the busiest CTA's tiles and k their k-tiles (a negative launch refits
  without it); then, per K row (rate_row), the k-tile factor that fits that row's shapes best, in the
  same sense, over the other 10 (two of them, 3000×5000×3000 and 5000×3000×2040, leave partial tiles);
  none below 1 (2x128x256's row 2 fits 0.976, within one run's noise).
  In ns, the long launches weigh most: there the configurations' times lie closest and the k-tile's cost
  decides. Fitted in relative error instead, the 15 shapes under 100 us set the costs, and the
  clustered 128×256's came out 7% and 10% under its times at 4096^3 and 5120^3.
- RAGGED: 12 shapes whose M or N leave a partial tile, and 4096³. Per configuration, the median over the
  shapes where M or N leave a partial tile of its own of the factor on the k-tile that the time asks for,
  each time first divided by the configuration's measured/predicted ratio at 4096³ in the same run (the
  two sweeps ran on different machines). A median within 5% of 1, what one run of rounds cannot tell
  from noise (bench/README.md, --control), counts as no slowdown: 1000.
- STEADY: 21 shapes, K a multiple of 64. Per configuration, the factor on the k-tile's cost (kCost's, times
  its K row's and ragged factors) that fits, least squares in ns, its runs that drew at least
  90% of the GPU's power limit (nvidia-smi): kPowerFactor. The 11 runs below it (all six at 1024^3, four
  at 1280^3, one at 1536x3072x2048) did not reach it.

The step's launch that picks by itself is named without its configuration ("step15_cluster/<size>"): it
is the one configuration not named at that size.

ADDED: a configuration added after the sweeps, swept on its own in another run (the same three sweeps'
shapes, a fresh machine), beside REFERENCE, a configuration of SWEEP. Its times in the rounds and at the
power limit are scaled by how REFERENCE's times there differ between the two runs (the median over the
shapes both have of SWEEP's, or STEADY's at the limit, over the new run's); its ragged factor needs no
scaling, since fit_ragged compares each configuration with itself at 4096^3 in the same run.
"""
import json
import pathlib
import re
import statistics
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWEEP = ROOT / "docs/bench/h100_2026-11-26-sweep-rounds.json"
RAGGED = ROOT / "docs/bench/h100_2026-11-26-sweep-ragged.json"
STEADY = ROOT / "docs/bench/h100_2026-11-27-sweep-steady.json"
# {configuration: (its SWEEP, RAGGED and STEADY)}, each beside REFERENCE.
ADDED = {"128x176": tuple(ROOT / f"docs/bench/h100_2026-11-27f-sweep-{s}-128x176.json"
                          for s in ("rounds", "ragged", "steady"))}
REFERENCE = "128x128"
# Step 15's tables, and step 16's copy of them (its kernel is step 15's, and it chooses as step 15 does).
CONFIGS = [ROOT / "step15_cluster/config.hpp", ROOT / "step16_pdl/config.hpp"]
CTAS = 132
NOISE = 50  # in 1/1000: how far one run of rounds leaves a ratio from 1 (bench/README.md, --control)
AT_LIMIT = 0.9  # a steady run at the power limit draws at least this share of it
# Variants' order (config.hpp), each (BLK_M, BLK_N, CTAs per cluster along M).
VARIANTS = {"2x128x256": (128, 256, 2), "128x256": (128, 256, 1), "128x128": (128, 128, 1),
            "64x128": (64, 128, 1), "2x128x192": (128, 192, 2), "2x128x144": (128, 144, 2), "128x176": (128, 176, 1)}
NAMES = {"2x128x256": "Default", "128x256": "Wide", "128x128": "Pingpong", "64x128": "Small",
         "2x128x192": "Mid", "2x128x144": "Narrow", "128x176": "PingpongWide"}


def busiest_tiles(m, n, variant):
    """tut::busiest_cta_work / (BLK_M·BLK_N): the busiest CTA's tiles, tile-rows counted up to clusters."""
    bm, bn, cluster = VARIANTS[variant]
    rows = -(-(-(-m // bm)) // cluster) * cluster
    return -(-(rows * -(-n // bn)) // CTAS)


def rate_row(k):
    return 0 if k % 64 == 0 else 1 if k % 16 == 0 else 2


def ragged(m, n, variant):
    bm, bn, _ = VARIANTS[variant]
    return m % bm != 0 or n % bn != 0


def load(path):
    """{(variant, (m, n, k)): ns per launch in the rounds}; an ADDED configuration's from its own sweep."""
    out = load_one(path)
    for v, paths in ADDED.items():
        theirs = load_one(paths[(SWEEP, RAGGED).index(path)])
        if path == SWEEP:
            out.update(scaled(out, theirs, v))
        else:
            out.update({key: t for key, t in theirs.items() if key[0] == v})
    return out


def scaled(ours, theirs, v):
    """theirs' times of configuration v, times the median over shapes of REFERENCE's time in ours over theirs."""
    scale = statistics.median(ours[(REFERENCE, s)] / t for (w, s), t in theirs.items()
                              if w == REFERENCE and (REFERENCE, s) in ours)
    return {key: t * scale for key, t in theirs.items() if key[0] == v}


def load_one(path):
    """{(variant, (m, n, k)): ns per launch in the rounds}, from one bench_gemm run."""
    by_size = {}
    for b in json.loads(path.read_text())["benchmarks"]:
        if b.get("run_type") != "iteration" or not b["name"].startswith("step15_cluster/") or "ms_rounds" not in b:
            continue
        parts = b["name"].split("/")
        size = tuple(int(x) for x in parts[-2].split("x"))
        by_size.setdefault(size, {})[parts[1] if len(parts) == 4 else None] = b["ms_rounds"] * 1e6
    out = {}
    for size, entries in by_size.items():
        unnamed = [v for v in VARIANTS if v not in entries and v not in ADDED]
        if None in entries:
            if len(unnamed) != 1:
                sys.exit(f"fit_costs: {size}: the step's own pick is not the one configuration left unnamed")
            entries[unnamed[0]] = entries.pop(None)
        out.update({(v, size): ns for v, ns in entries.items()})
    return out


def fit(times):
    """kCost and kKTileFactor: {variant: (k_tile, tile, launch)}, {variant: (1000, row 1, row 2)}."""
    cost, factor = {}, {}
    for v in VARIANTS:
        rows = [(busiest_tiles(m, n, v), -(-k // 64), t) for (w, (m, n, k)), t in times.items()
                if w == v and rate_row(k) == 0]
        x, y = np.array([[tiles * k_tiles, tiles, 1] for tiles, k_tiles, _ in rows]), np.array([t for *_, t in rows])
        c = np.linalg.lstsq(x, y, rcond=None)[0]
        if c[2] < 0:  # no negative launch cost
            c = np.append(np.linalg.lstsq(x[:, :2], y, rcond=None)[0], 0.0)
        cost[v] = tuple(int(round(float(a))) for a in c)
        k_tile, tile, launch = cost[v]
        row_factors = [1000]
        for row in (1, 2):  # least squares of the factor alone
            num = den = 0.0
            for (w, (m, n, k)), t in times.items():
                if w == v and rate_row(k) == row:
                    tiles = busiest_tiles(m, n, v)
                    a, b = tiles * -(-k // 64) * k_tile, t - tiles * tile - launch
                    num, den = num + a * b, den + a * a
            row_factors.append(max(1000, int(round(1000 * num / den))))  # none faster than row 0
        factor[v] = tuple(row_factors)
    return cost, factor


def predicted(m, n, k, v, cost, factor):
    tiles = busiest_tiles(m, n, v)
    k_tile, tile, launch = cost[v]
    return tiles * (-(-k // 64) * k_tile * factor[v][rate_row(k)] / 1000 + tile) + launch


def fit_ragged(times, cost, factor):
    """kRaggedFactor: {variant: factor in 1/1000}."""
    out = {}
    for v in VARIANTS:
        base = times[(v, (4096, 4096, 4096))] / predicted(4096, 4096, 4096, v, cost, factor)
        fs = []
        for (w, (m, n, k)), t in times.items():
            if w != v or not ragged(m, n, v):
                continue
            tiles, (k_tile, tile, launch) = busiest_tiles(m, n, v), cost[v]
            fs.append((t / base - launch - tiles * tile) / (tiles * -(-k // 64) * k_tile * factor[v][rate_row(k)] / 1000))
        median = int(round(1000 * statistics.median(fs)))
        out[v] = median if abs(median - 1000) > NOISE else 1000
    return out


def at_limit(path):
    """{(variant, (m, n, k)): ns per launch} of a STEADY sweep's runs at the power limit."""
    sweep = json.loads(path.read_text())
    limit = sweep["context"]["gpu"]["power_limit_w"]
    return {(r["variant"], (r["m"], r["n"], r["k"])): r["ms_per_launch"] * 1e6 for r in sweep["runs"]
            if r["power_w"] >= AT_LIMIT * limit}


def fit_power(path, cost, factor, rag):
    """kPowerFactor: {variant: factor in 1/1000}, from STEADY's runs at the power limit."""
    runs = at_limit(path)
    for v, paths in ADDED.items():
        runs.update(scaled(runs, at_limit(paths[2]), v))
    out = {}
    for v in VARIANTS:
        num = den = 0.0
        for (w, (m, n, k)), t in runs.items():
            if w != v:
                continue
            tiles, (k_tile, tile, launch) = busiest_tiles(m, n, v), cost[v]
            f = factor[v][rate_row(k)] / 1000 * (rag[v] / 1000 if ragged(m, n, v) else 1)
            a, b = tiles * -(-k // 64) * k_tile * f, t - tiles * tile - launch
            num, den = num + a * b, den + a * a
        out[v] = int(round(1000 * num / den))
    return out


def tables(cost, factor, rag, power):
    """The four tables' numbers, in Variants' order."""
    return ([cost[v] for v in VARIANTS], [[factor[v][r] for v in VARIANTS] for r in range(3)],
            [rag[v] for v in VARIANTS], [power[v] for v in VARIANTS])


def in_config(config):
    """The same four tables as `config` (a config.hpp path) has them."""
    text = config.read_text()
    ints = lambda s: [int(x) for x in re.findall(r"-?\d+", s)]
    body = lambda name: re.search(name + r"\[[^]]*\](?:\[[^]]*\])? = (\{.*?\});", text, re.S).group(1)
    c = ints(re.sub(r"//[^\n]*", "", body("kCost")))
    f = ints(body("kKTileFactor"))
    n = len(VARIANTS)
    return ([tuple(c[i:i + 3]) for i in range(0, len(c), 3)], [f[i:i + n] for i in range(0, len(f), n)],
            ints(body("kRaggedFactor")), ints(body("kPowerFactor")))


def main(argv):
    cost, factor = fit(load(SWEEP))
    rag = fit_ragged(load(RAGGED), cost, factor)
    fitted = tables(cost, factor, rag, fit_power(STEADY, cost, factor, rag))
    if argv[1:] == ["--check"]:
        for config in CONFIGS:
            held = in_config(config)
            if held != fitted:
                print(f"fit_costs: {config.relative_to(ROOT)} holds {held},\n  the sweeps give {fitted}", file=sys.stderr)
                return 1
        print(f"fit_costs: {' and '.join(str(c.relative_to(ROOT)) for c in CONFIGS)} hold the costs that "
              f"{SWEEP.name}, {RAGGED.name} and {STEADY.name} give"
              + "".join(f", with {v}'s own {', '.join(p.name for p in paths)}" for v, paths in ADDED.items()))
        return 0
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    print("kCost:", ", ".join(f"{{{a}, {b}, {c}}}  // {NAMES[v]}" for v, (a, b, c) in zip(VARIANTS, fitted[0])))
    print("kKTileFactor:", fitted[1])
    print("kRaggedFactor:", fitted[2])
    print("kPowerFactor:", fitted[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
