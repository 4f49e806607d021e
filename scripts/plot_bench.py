#!/usr/bin/python3
"""Turn bench_gemm's Google Benchmark JSON into docs/images/perf.svg and the README's perf table.

    scripts/plot_bench.py            # regenerate docs/images/perf.svg and the README section
    scripts/plot_bench.py --check    # write nothing; exit 1 if either checked-in file is out of date,
                                     # 77 if only the SVG differs and another matplotlib drew it

The input is what `bench_gemm --benchmark_out=FILE --benchmark_out_format=json` writes (default
docs/bench/h100_2026-11-25b.json). Every step is shown by its default variant (the entry named
step/SIZE/..., not step/VARIANT/SIZE/...), against each cuBLAS kind in the file (cublas_KIND/SIZE,
cublasGemmEx, which the ratios divide by) and each tuned cuBLASLt kind (cublasLt_KIND/SIZE, in files
that have them; a cuBLASLt entry that reports an error, no algorithm for that kind, is left out). The
README section is the text between the perf:begin and perf:end marker lines; the markers themselves
are kept.

Both outputs are byte-for-byte reproducible for a given input and matplotlib version, so --check can
guard them. Needs Debian's python3-matplotlib (`apt-get install python3-matplotlib`), hence the
/usr/bin/python3 shebang rather than whatever python3 is first on PATH.
"""

import argparse
import io
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib import ticker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_JSON = os.path.join(ROOT, "docs", "bench", "h100_2026-11-25b.json")
DEFAULT_SVG = os.path.join(ROOT, "docs", "images", "perf.svg")
DEFAULT_README = os.path.join(ROOT, "README.md")

BEGIN_MARKER = "<!-- perf:begin (scripts/plot_bench.py writes this section; do not edit by hand) -->"
END_MARKER = "<!-- perf:end -->"
SIZE_RE = re.compile(r"(\d+)x(\d+)x(\d+)")
# Steps 11-13 were re-cut on 2026-11-25 (issue 33): the persistent kernel with a TMA-store epilogue, then
# step11_persistent, became step12_tma_store, and a new step11_persistent came in. A run made before that
# names the kernel by its old name; it is shown by today's (the kernel is the same), and the README says so.
RECUT = "2026-11-25T17:20"
RENAMED_BY_RECUT = {"step11_persistent": "step12_tma_store"}


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


def parse_name(name):
    """Split "kernel[/variant]/MxNxK/manual_time" into (kernel, variant or None, size)."""
    parts = name.split("/")
    for i, part in enumerate(parts[1:], start=1):
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
    results.before_recut = str(context.get("date", "")) < RECUT
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
        if getattr(results, "before_recut", False):
            kernel = RENAMED_BY_RECUT.get(kernel, kernel)
        table, value = results.steps.setdefault(kernel, {}), (entry["TFLOP/s"], entry.get("vs_cuBLAS"))
    if size in table:
        raise BadInput(f"benchmark {entry['name']!r} appears twice (repetitions are not supported)")
    table[size] = value
    if size not in results.sizes:
        results.sizes.append(size)


def size_label(size):
    m, n, k = SIZE_RE.fullmatch(size).groups()
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def cublas_label(kind):
    """"cuBLAS fp32 NT" for cublas_fp32_NT, "cuBLASLt fp32 NT" for cublasLt_fp32_NT."""
    library = "cuBLASLt" if kind.startswith("cublasLt_") else "cuBLAS"
    return library + " " + " ".join(kind.split("_")[1:])


def twin(kind):
    """The cuBLAS kind a cuBLASLt kind stands beside: cublas_fp32_NT for cublasLt_fp32_NT."""
    return "cublas_" + kind[len("cublasLt_"):]


def cublaslt_kinds(results):
    """The cuBLASLt kinds in their cuBLAS twins' order (those without a twin last, as they came)."""
    kinds = list(results.cublas)
    return sorted(results.cublaslt, key=lambda k: kinds.index(twin(k)) if twin(k) in kinds else len(kinds))


def regular(size):
    """Whether every dimension is a power of two: the sizes the lines join. The ragged ones
    (1000×999×777, ...) are not points on that curve, so they are drawn apart, unjoined."""
    return all(int(d) & (int(d) - 1) == 0 for d in SIZE_RE.fullmatch(size).groups())


def series(values, sizes, keep):
    # NaN rather than a skipped point, so a line breaks where a step did not run that size (or where
    # the size is not one of this series') instead of bridging the gap as if it had.
    return [values.get(size, math.nan) if keep(size) else math.nan for size in sizes]


# One colour and one marker per step: matplotlib's tab10 without its grey, which the cuBLAS lines use,
# then darker tones of tab20b for the steps past the ninth. A step past the last colour is an error, not
# a repeat of step 01's look.
STEP_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
                "#17becf", "#393b79", "#637939", "#843c39", "#7b4173"]
STEP_MARKERS = "osD^vP*XhpH<>"
CUBLAS_STYLES = [("black", "--", "x"), ("black", ":", "+"), ("black", "-.", "1")]
# cuBLASLt: the line and marker of the cuBLAS kind it stands beside, in grey; one legend entry for all of
# them, so that the legend keeps its width.
CUBLASLT_COLOUR = "0.55"


def plot_both(axis, x, values, sizes, style, joined_style):
    """The regular sizes joined by a line; the ragged ones as unjoined markers of the same look."""
    axis.plot(x, series(values, sizes, regular), **joined_style)
    axis.plot(x, series(values, sizes, lambda s: not regular(s)), linestyle="none",
              **{k: v for k, v in style.items() if k != "label"})


def render_svg(results):
    """The two-panel figure as SVG bytes."""
    plt.rcParams["svg.hashsalt"] = "cute-gemm-tutorial"
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, and searchable on the page
    plt.rcParams["font.size"] = 13  # legible at the README's width, about 900 px for 11 inches
    # A third row holds the legend, under the plots and across the whole width, in columns: readable
    # where the figure is scaled down to the README's width.
    fig, (top, bottom, key) = plt.subplots(
        3, 1, figsize=(11, 10.5), height_ratios=(3, 2, 0.75), layout="constrained"
    )
    bottom.sharex(top)
    top.tick_params(labelbottom=False)
    key.axis("off")
    x = range(len(results.sizes))
    if len(results.steps) > min(len(STEP_COLOURS), len(STEP_MARKERS)):
        raise SystemExit(f"plot_bench.py: {len(results.steps)} steps, but only {len(STEP_COLOURS)} colours and "
                         f"{len(STEP_MARKERS)} markers: add some")
    for i, (step, values) in enumerate(sorted(results.steps.items())):
        style = dict(marker=STEP_MARKERS[i], markersize=7, color=STEP_COLOURS[i], label=step)
        plot_both(top, x, {s: v[0] for s, v in values.items()}, results.sizes, style, dict(style, linewidth=2))
        ratios = {s: v[1] for s, v in values.items() if v[1] is not None}
        plot_both(bottom, x, ratios, results.sizes, style, dict(style, linewidth=2))
    for i, (kind, values) in enumerate(results.cublas.items()):
        colour, line, marker = CUBLAS_STYLES[i % len(CUBLAS_STYLES)]
        style = dict(color=colour, marker=marker, markersize=9, label=cublas_label(kind))
        plot_both(top, x, values, results.sizes, style, dict(style, linestyle=line, linewidth=2))
    kinds = list(results.cublas)
    for i, kind in enumerate(cublaslt_kinds(results)):
        _, line, marker = CUBLAS_STYLES[(kinds.index(twin(kind)) if twin(kind) in kinds else i) % len(CUBLAS_STYLES)]
        style = dict(color=CUBLASLT_COLOUR, marker=marker, markersize=9, label="_" if i else "cuBLASLt (grey)")
        plot_both(top, x, results.cublaslt[kind], results.sizes, style, dict(style, linestyle=line, linewidth=2))

    ragged = [i for i, s in enumerate(results.sizes) if not regular(s)]
    for axis in (top, bottom):
        if ragged:
            # The ragged sizes stand apart: a band behind them says so.
            axis.axvspan(min(ragged) - 0.5, max(ragged) + 0.5, color="0.93", zorder=0)
    if ragged:
        top.text((min(ragged) + max(ragged)) / 2, 0.02, "ragged sizes\n(not joined)", ha="center", va="bottom",
                 transform=top.get_xaxis_transform(), fontsize="small", color="0.35")

    top.set_yscale("log")
    # Decade ticks alone leave most of the range unlabelled; 1-2-5 ticks can be read off directly.
    top.yaxis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    top.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    top.yaxis.set_minor_formatter(ticker.NullFormatter())
    top.set_ylabel("TFLOP/s")
    top.grid(True, which="major", alpha=0.4)
    top.set_title("Throughput: each step's default variant and cuBLAS", fontsize="medium")

    bottom.axhline(1.0, color="black", linewidth=1)
    bottom.set_ylim(bottom=0)
    bottom.set_ylabel("TFLOP/s ÷ cuBLAS TFLOP/s")
    bottom.grid(True, alpha=0.4)
    bottom.set_title(
        "Ratio to cuBLAS with the same input type and transposes (1 = as fast)", fontsize="medium"
    )
    # Two lines for the long labels, so that neighbours do not run into each other.
    bottom.set_xticks(list(x), [size_label(s).replace("×", "×\n", 1) if "³" not in size_label(s) else size_label(s)
                                for s in results.sizes])
    bottom.set_xlabel("problem size M×N×K (in benchmark order)")
    handles, labels = top.get_legend_handles_labels()
    key.legend(handles, labels, loc="center", ncol=4, fontsize="medium", frameon=False)

    fig.suptitle(f"CuTe GEMM tutorial on {results.gpu}, {results.date}")
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def markdown_table(rows):
    """A pipe table, padded so it also reads as plain text; column 0 left-aligned, the rest right."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]

    def line(cells):
        padded = [cells[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(cells[1:], widths[1:])]
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join([":" + "-" * (widths[0] + 1)] + ["-" * (w + 1) + ":" for w in widths[1:]]) + "|"
    return "\n".join([line(rows[0]), rule] + [line(row) for row in rows[1:]])


def step_cell(value):
    if value is None:
        return ""
    tflops, ratio = value
    return f"{tflops:.2f}" if ratio is None else f"{tflops:.2f} ({ratio:.3f})"


def readme_section(results, json_path, svg_path, readme_path):
    """The text that goes between the README markers."""
    steps = sorted(results.steps)
    baselines = {**results.cublas, **{kind: results.cublaslt[kind] for kind in cublaslt_kinds(results)}}
    rows = [["Size"] + [cublas_label(kind) for kind in baselines] + steps]
    for size in results.sizes:
        rows.append(
            [size_label(size)]
            + [f"{values[size]:.2f}" if size in values else "" for values in baselines.values()]
            + [step_cell(results.steps[step].get(size)) for step in steps]
        )
    lt = ("TFLOP/s of each cuBLAS kind, of cuBLASLt with the fastest algorithm its heuristic offered, and of\n"
          "each step's default variant with, in parentheses, its ratio to cuBLAS (cublasGemmEx) for the same\n"
          "input type and transposes; empty where the step does not run that size.\n")
    plain = ("TFLOP/s of each cuBLAS kind, and of each step's default variant with, in parentheses, its ratio to\n"
             "cuBLAS for the same input type and transposes; empty where the step does not run that size.\n")
    image = os.path.relpath(svg_path, os.path.dirname(readme_path)).replace(os.sep, "/")
    recut = ("This run predates the re-cut of steps 11 to 13: the kernel it names step11_persistent is today's\n"
             "step12_tma_store, shown under that name; steps 11 and 13 are measured on their pages.\n\n"
             if getattr(results, "before_recut", False) and any(k in results.steps for k in RENAMED_BY_RECUT.values())
             else "")
    return (
        f"Measured on {results.gpu}, {results.date}, from `{display_path(json_path)}`.\n"
        "\n"
        + recut +
        f"![TFLOP/s per step against cuBLAS]({image})\n"
        "\n"
        + (lt if results.cublaslt else plain)
        + "\n" + markdown_table(rows) + "\n\n"
    )


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


def replace_section(readme, section, readme_path):
    begin, end = readme.find(BEGIN_MARKER), readme.find(END_MARKER)
    if begin < 0 or end < begin:
        raise BadInput(f"{readme_path} lacks the lines {BEGIN_MARKER} ... {END_MARKER}")
    start = begin + len(BEGIN_MARKER)
    return readme[:start] + "\n" + section + readme[end:]


def read_bytes_or_none(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def write_if_changed(path, data):
    # Leaving an unchanged file alone keeps its mtime, so make and editors do not see a change.
    if read_bytes_or_none(path) != data:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        print(f"wrote {display_path(path)}")


def svg_matplotlib_version(svg):
    """The matplotlib version an SVG records in its metadata, or None."""
    found = re.search(rb"Matplotlib v([0-9][0-9.]*[0-9])", svg or b"")
    return found.group(1).decode() if found else None


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Plot bench_gemm's Google Benchmark JSON into an SVG and the README's perf table."
    )
    for option, default, what in (
        ("--json", DEFAULT_JSON, "benchmark JSON"),
        ("--svg", DEFAULT_SVG, "SVG to write"),
        ("--readme", DEFAULT_README, "README to update"),
    ):
        parser.add_argument(option, default=default, help=f"{what} (default: {display_path(default)})")
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1 if the SVG or the README section differs from what would be written",
    )
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        results = load_results(args.json)
        svg = render_svg(results)
        section = readme_section(results, args.json, args.svg, args.readme)
        readme = replace_section(read_text(args.readme), section, args.readme).encode("utf-8")
    except BadInput as e:
        print(f"plot_bench.py: {e}", file=sys.stderr)
        return 2

    outputs = [(args.svg, svg), (args.readme, readme)]
    if args.check:
        stale = [display_path(path) for path, data in outputs if read_bytes_or_none(path) != data]
        drawn_with = svg_matplotlib_version(read_bytes_or_none(args.svg))
        if stale == [display_path(args.svg)] and drawn_with and drawn_with != matplotlib.__version__:
            # Another matplotlib draws other bytes from the same data: that is not a stale plot.
            print(f"plot_bench.py: {display_path(args.svg)} was drawn with matplotlib {drawn_with}, this is "
                  f"{matplotlib.__version__}: cannot compare it (the README table matches)", file=sys.stderr)
            return 77
        if stale:
            print(f"plot_bench.py: out of date, rerun scripts/plot_bench.py: {' '.join(stale)}",
                  file=sys.stderr)
            return 1
        return 0
    for path, data in outputs:
        write_if_changed(path, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
