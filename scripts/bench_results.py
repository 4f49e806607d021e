#!/usr/bin/env python3
"""The speed ladder's numbers, from a `bench_gemm --benchmark_out_format=json` file: each step's default
variant at each size, its gain over the step before, its share of cuBLAS for its input type and of that
type's peak. scripts/plot_bench.py draws and tabulates them; scripts/gen_pages.py quotes a step's on its
page (gen:speed). No matplotlib here, so that the pages need none.
"""

import json
import os
import re
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The pages' one benchmark run: every figure the pages and the README quote comes from it (the older
# runs of docs/bench/ only where a page marks a passage as history).
BENCH_JSON = os.path.join(ROOT, "docs", "bench", "h100_2026-11-26.json")
CMAKELISTS = os.path.join(ROOT, "CMakeLists.txt")
# The peaks a step's % of peak divides by: the H100 SXM's datasheet figures, dense. FP32 on the CUDA
# cores (steps 01-04: fp32 in, FFMA) and FP16 on the tensor cores with fp32 accumulation (steps 05-13).
PEAK_TFLOPS = {"fp32": 67.0, "fp16": 989.0}
SIZE_RE = re.compile(r"(\d+)x(\d+)x(\d+)")
# The ladder's sizes: a square one every step runs, and a ragged one (steps 01 and 05 run tile multiples
# only, and sit that one out).
LADDER_SIZES = ("4096x4096x4096", "4000x4000x4000")


class BadInput(Exception):
    """Input the script cannot use; main() reports it in one line and exits 2."""


@dataclass
class Results:
    """The benchmark file, reduced to what the plot and the table show."""

    gpu: str
    date: str
    sizes: list = field(default_factory=list)  # "MxNxK" strings, in the order the JSON has them
    cublas: dict = field(default_factory=dict)  # kind -> {size: TFLOP/s}
    cublaslt: dict = field(default_factory=dict)  # kind -> {size: TFLOP/s}
    steps: dict = field(default_factory=dict)  # step -> {size: (TFLOP/s, vs_cuBLAS or None)}
    rounds: dict = field(default_factory=dict)  # step -> {size: ratio_cuBLAS}, where rounds ran


def parse_name(name):
    """Split "kernel[/variant]/MxNxK/manual_time" into (kernel, variant or None, size). The size is the last
    part that reads MxNxK: a variant's name may read so too (step 15's "2x128x256")."""
    parts = name.split("/")
    for i in range(len(parts) - 1, 0, -1):
        part = parts[i]
        if SIZE_RE.fullmatch(part):
            return parts[0], "/".join(parts[1:i]) or None, part
    raise BadInput(f"benchmark name {name!r} has no MxNxK size")


def load_results(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise BadInput(f"{path} is not JSON: {e}") from e
    if not isinstance(data, dict) or not data.get("benchmarks"):
        raise BadInput(f"{path} has no benchmarks (is it bench_gemm --benchmark_out_format=json output?)")

    context = data.get("context", {})
    if not isinstance(context, dict):
        raise BadInput(f"{path}: 'context' is not an object")
    results = Results(gpu=context.get("gpu", "unknown GPU"), date=str(context.get("date", ""))[:10])
    for entry in data["benchmarks"]:
        # Aggregates (mean/median/stddev of --benchmark_repetitions) would double every point.
        if not isinstance(entry, dict) or entry.get("run_type") == "aggregate":
            continue
        # A kernel that failed (e.g. differed from cuBLAS) must not pass for one that did not run. A cuBLASLt
        # entry's error is a baseline missing (no usable algorithm for that kind), not a kernel's failure.
        if entry.get("error_occurred"):
            if str(entry.get("name", "")).startswith("cublasLt_"):
                continue
            raise BadInput(f"{path}: {entry.get('name', '?')} reported an error: {entry.get('error_message', '')}")
        try:
            add_entry(results, entry)
        except (KeyError, TypeError, ValueError) as e:
            raise BadInput(f"{path}: malformed benchmark entry {entry.get('name', '?')!r}: {e!r}") from e
    if not results.sizes:
        raise BadInput(f"{path} has no benchmark that ran without error")
    return results


def add_entry(results, entry):
    kernel, variant, size = parse_name(entry["name"])
    if variant is not None:
        return
    if not isinstance(entry.get("TFLOP/s"), (int, float)):
        raise BadInput(f"benchmark {entry['name']!r} has no numeric TFLOP/s counter")
    # "cublas_" and "cublasLt_" apart: a cuBLASLt entry is neither cuBLAS nor a step.
    if kernel.startswith("cublasLt_"):
        table, value = results.cublaslt.setdefault(kernel, {}), entry["TFLOP/s"]
    elif kernel.startswith("cublas_"):
        table, value = results.cublas.setdefault(kernel, {}), entry["TFLOP/s"]
    else:
        table, value = results.steps.setdefault(kernel, {}), (entry["TFLOP/s"], entry.get("vs_cuBLAS"))
        if entry.get("ratio_cuBLAS") is not None:
            results.rounds.setdefault(kernel, {})[size] = entry["ratio_cuBLAS"]
    if size in table:
        raise BadInput(f"benchmark {entry['name']!r} appears twice (repetitions are not supported)")
    table[size] = value
    if size not in results.sizes:
        results.sizes.append(size)


def size_label(size):
    m, n, k = SIZE_RE.fullmatch(size).groups()
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def step_families(path=CMAKELISTS):
    """Each registered step's family: "sm90" where its add_tutorial_step() builds it for sm_90a only
    (ARCH 90a-real: wgmma), else "" (the caller tells the fp32 steps from the fp16 ones by their input)."""
    text = read_text(path)
    calls = re.split(r"(?=add_tutorial_step\()", text)
    return {m.group(1): ("sm90" if "ARCH 90a" in call else "") for call in calls
            for m in [re.match(r"add_tutorial_step\((step\d\d\w*)", call)] if m}


def step_titles(path=CMAKELISTS):
    """Each registered step's TITLE, from its add_tutorial_step() call: the idea it adds."""
    text = read_text(path)
    titles = dict(re.findall(r'add_tutorial_step\((step\d\d\w*)\s+TITLE\s+"([^"]*)"', text))
    if not titles:
        raise BadInput(f"{path}: no add_tutorial_step(... TITLE \"...\") call")
    return titles


def input_type(results, step, size):
    """fp32 or fp16: the type of the cuBLAS kind the step's vs_cuBLAS divided by at this size."""
    tflops, ratio = results.steps[step][size]
    if ratio:
        for kind, values in results.cublas.items():
            if size in values and abs(values[size] * ratio - tflops) <= 1e-6 * tflops:
                return kind.split("_")[1], values[size]
    raise BadInput(f"{step} at {size}: no cuBLAS entry its vs_cuBLAS divides by")


@dataclass
class Rung:
    """One step of the ladder, at each size: TFLOP/s, its gain over the step before, % of cuBLAS, % of peak."""

    step: str
    title: str
    cells: dict = field(default_factory=dict)  # size -> (tflops, gain or None, of_cublas, of_peak, type)
    from_rounds: dict = field(default_factory=dict)  # size -> whether of_cublas is a median of interleaved rounds


def ladder(results, titles):
    rungs, before = [], {}
    for step in sorted(results.steps):
        if step not in titles:
            raise BadInput(f"{step} is in the benchmark but not registered in CMakeLists.txt")
        rung = Rung(step, titles[step])
        for size in results.sizes:
            if size not in results.steps[step]:
                continue
            tflops = results.steps[step][size][0]
            kind, cublas = input_type(results, step, size)
            # Against cuBLAS: the median of the interleaved rounds where they ran (the kernels within half
            # of it), which share the GPU's state of the moment; else its own timing over cuBLAS's.
            rounds = results.rounds.get(step, {}).get(size)
            of_cublas = rounds if rounds is not None else tflops / cublas
            # The gain over the step before at the same size: the ratio of the two shares of cuBLAS where
            # both come from interleaved rounds against the same cuBLAS (at the power limit a kernel's own
            # loop moves by several percent from one to the next), else of their own TFLOP/s. A step that
            # does not run a size (tile multiples only) breaks the chain there.
            gain = None
            if size in before:
                prev_tflops, prev_rounds, prev_kind = before[size]
                both = rounds is not None and prev_rounds is not None and prev_kind == kind
                gain = rounds / prev_rounds if both else tflops / prev_tflops
            rung.cells[size] = (tflops, gain, of_cublas, tflops / PEAK_TFLOPS[kind], kind)
            rung.from_rounds[size] = rounds is not None
        before = {size: (cell[0], cell[2] if rung.from_rounds[size] else None, cell[4]) for size, cell in rung.cells.items()}
        rungs.append(rung)
    return rungs


def display_path(path):
    """The path relative to the repository root when it lies inside it, so the README stays portable."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def read_text(path):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}") from e
