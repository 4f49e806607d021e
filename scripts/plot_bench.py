#!/usr/bin/python3
"""Turn bench_gemm's Google Benchmark JSON into the speed ladder: docs/images/ladder.svg and its table,
in the README and in docs/index.md.

    scripts/plot_bench.py            # regenerate docs/images/ladder.svg and the two tables
    scripts/plot_bench.py --check    # write nothing; exit 1 if a checked-in file is out of date,
                                     # 77 if only the SVG differs and another matplotlib drew it

The input is what `bench_gemm --benchmark_out=FILE --benchmark_out_format=json` writes (default
docs/bench/h100_2026-11-26.json: every step and variant, cuBLAS and tuned cuBLASLt, at every default
size and 4000³, one session). The ladder is 4096³ and one ragged size (bench_results.LADDER_SIZES); the
small plot of each family, the square sizes. Every step is shown by its default variant (the entry named
step/SIZE/..., not step/VARIANT/SIZE/...) against cuBLAS of its own input type (cublasGemmEx, which
its vs_cuBLAS divides by). Each table is the text between the ladder:begin and ladder:end marker lines
of its page; the markers themselves are kept. The idea of each step is its TITLE in the top
CMakeLists.txt, where the step is registered.

Both outputs are byte-for-byte reproducible for a given input and matplotlib version, so --check can
guard them. Needs Debian's python3-matplotlib (`apt-get install python3-matplotlib`), hence the
/usr/bin/python3 shebang rather than whatever python3 is first on PATH.
"""

import argparse
import io
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen before pyplot loads)
from matplotlib import ticker  # noqa: E402

from bench_results import (LADDER_SIZES, PEAK_TFLOPS, ROOT, SIZE_RE, BadInput, BENCH_JSON, display_path,  # noqa: E402
                           ladder, load_results, read_text, size_label, step_families, step_titles)

DEFAULT_JSON = BENCH_JSON
DEFAULT_SVG = os.path.join(ROOT, "docs", "images", "ladder.svg")
DEFAULT_PAGES = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "index.md")]

BEGIN_MARKER = "<!-- ladder:begin (scripts/plot_bench.py writes this section; do not edit by hand) -->"
END_MARKER = "<!-- ladder:end -->"


def render_svg(results, rungs):
    """The ladder as SVG bytes: each step's TFLOP/s at the first size, bars on a log scale, with cuBLAS
    and the peak of each input type drawn across."""
    plt.rcParams["svg.hashsalt"] = "cute-gemm-tutorial"
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, and searchable on the page
    plt.rcParams["font.size"] = 11  # drawn 8.3 inches wide: at GitHub's 830 px, 11 pt is about 15 px
    size = LADDER_SIZES[0]
    fig, axis = plt.subplots(figsize=(8.3, 5.6), layout="constrained")
    shown = [r for r in rungs if size in r.cells]
    y = list(range(len(shown)))[::-1]  # step 01 at the top
    colours = {"fp32": "#4c72b0", "fp16": "#dd8452"}
    for row, rung in zip(y, shown):
        tflops, gain, of_cublas, _, kind = rung.cells[size]
        axis.barh(row, tflops, color=colours[kind], height=0.7)
        label = f"{tflops:.0f}" + (f"  ×{gain:.2f}" if gain is not None else "")
        if tflops > 100:  # a long bar holds its label, clear of the lines drawn across
            axis.text(tflops / 1.08, row, label, va="center", ha="right", fontsize=10, color="white")
        else:
            axis.text(tflops * 1.08, row, label, va="center", fontsize=10)
    axis.set_yticks(y, [r.step.replace("_", " ", 1) for r in shown])
    axis.set_xscale("log")
    axis.set_xlim(5, 2500)
    axis.xaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    for kind, colour in colours.items():
        cublas = [v[size] for k, v in results.cublas.items() if k.split("_")[1] == kind and size in v]
        if cublas:
            axis.axvline(max(cublas), color=colour, linestyle="--", linewidth=1.5)
            axis.text(max(cublas), len(shown) - 0.15, f"cuBLAS {kind}", color=colour, ha="center", fontsize=10)
        axis.axvline(PEAK_TFLOPS[kind], color=colour, linestyle=":", linewidth=1.5)
        axis.text(PEAK_TFLOPS[kind] * 1.05, -1.0, f"{kind} peak", color=colour, ha="left", fontsize=10)
    axis.set_ylim(-1.4, len(shown) + 0.4)
    axis.set_xlabel(f"TFLOP/s at {size_label(size)} (log scale)\nblue: fp32 in · orange: fp16 in · ×: the gain over the step above")
    axis.grid(True, axis="x", which="major", alpha=0.4)
    fig.suptitle(f"The speed ladder: {results.gpu}, {results.date}, one run", fontsize=12)
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


# The families of steps, each a small plot of TFLOP/s against the size: few enough lines not to knot.
FAMILIES = (("fp32", "steps on the CUDA cores (fp32 in, FFMA)"),
            ("sm80", "steps on the tensor cores with mma.sync (fp16 in)"),
            ("sm90", "Hopper steps: wgmma, TMA (fp16 in)"))


def family_of(rung, families):
    kind = next(iter(rung.cells.values()))[4]
    return "fp32" if kind == "fp32" else families.get(rung.step) or "sm80"


def power_of_two_cube(size):
    """512x512x512, 1024x1024x1024, ...: the sizes a family's plot joins into lines."""
    m, n, k = (int(d) for d in SIZE_RE.fullmatch(size).groups())
    return m == n == k and m & (m - 1) == 0


def render_family_svg(results, rungs, family, title):
    """One family's TFLOP/s at the square sizes, one line per step, with cuBLAS of that input type."""
    plt.rcParams["svg.hashsalt"] = "cute-gemm-tutorial"
    plt.rcParams["svg.fonttype"] = "none"
    plt.rcParams["font.size"] = 11
    sizes = [s for s in results.sizes if power_of_two_cube(s)]
    sizes.sort(key=lambda s: int(s.split("x")[0]))
    fig, axis = plt.subplots(figsize=(8.3, 3.4), layout="constrained")
    x = range(len(sizes))
    shown = [r for r in rungs if r.family == family]
    for i, rung in enumerate(shown):
        axis.plot(x, [rung.cells[s][0] if s in rung.cells else float("nan") for s in sizes], marker="osD^vP*"[i % 7],
                  linewidth=2, label=rung.step)
    kind = "fp32" if family == "fp32" else "fp16"
    kinds = [k for k, values in results.cublas.items() if k.split("_")[1] == kind and any(s in values for s in sizes)]
    for k, line in zip(kinds, ("--", ":", "-.")):
        axis.plot(x, [results.cublas[k].get(s, float("nan")) for s in sizes], color="black", linestyle=line,
                  linewidth=1.5, label=f"cuBLAS {' '.join(k.split('_')[1:])}")
    axis.set_xticks(list(x), [size_label(s) for s in sizes])
    axis.set_ylabel("TFLOP/s")
    axis.set_ylim(bottom=0)
    axis.grid(True, alpha=0.4)
    axis.legend(fontsize=10, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))  # beside, clear of the lines
    axis.set_title(title, fontsize=12)
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def markdown_table(rows):
    """A pipe table; column 0 and 1 left-aligned, the rest right."""
    rule = "|" + "|".join(["---", "---"] + ["---:"] * (len(rows[0]) - 2)) + "|"
    return "\n".join(["| " + " | ".join(rows[0]) + " |", rule] + ["| " + " | ".join(row) + " |" for row in rows[1:]])


def family_path(svg_path, family):
    return os.path.join(os.path.dirname(svg_path), f"perf_{family}.svg")


def ladder_section(results, rungs, json_path, svg_path, page_path, families=False):
    """The text that goes between a page's markers."""
    first, ragged = LADDER_SIZES[0], [s for s in LADDER_SIZES[1:] if s in results.sizes]
    rows = [["step", "the idea it adds", size_label(first), "gain", "of cuBLAS", "of peak"]
            + [size_label(s) for s in ragged]]
    pages = os.path.relpath(os.path.join(ROOT, "docs"), os.path.dirname(page_path)).replace(os.sep, "/")
    for rung in rungs:
        cell = rung.cells.get(first)
        row = [f"[{rung.step[4:6]}]({'' if pages == '.' else pages + '/'}{rung.step}.md)", rung.title]
        if cell:
            tflops, gain, of_cublas, of_peak, kind = cell
            row += [f"{tflops:.2f}", f"×{gain:.2f}" if gain else "", f"{100 * of_cublas:.0f}%", f"{100 * of_peak:.0f}%"]
        else:
            row += ["", "", "", ""]
        for size in ragged:
            c = rung.cells.get(size)
            row.append(f"{c[0]:.2f} ({100 * c[2]:.0f}%)" if c else "tiles only")
        rows.append(row)
    image = os.path.relpath(svg_path, os.path.dirname(page_path)).replace(os.sep, "/")
    return (
        f"<!-- numbers: run {display_path(json_path)} -->\n"
        f"The speed ladder, one `bench_gemm` session on {results.gpu.split(' (')[0]}, {results.date}\n"
        f"(`{display_path(json_path)}`; short bursts, not the steady state at the power limit). Each step's\n"
        "TFLOP/s, its gain over the step before, its share of cuBLAS for the same input type (SGEMM up to\n"
        "step 04, fp16 `cublasGemmEx` after; the median of interleaved rounds where they ran) and of that\n"
        f"type's peak (the datasheet's {PEAK_TFLOPS['fp32']:g} fp32 and {PEAK_TFLOPS['fp16']:g} fp16-tensor TFLOP/s).\n"
        "TFLOP/s come from each kernel's own timed loop, which at the power limit moves by several percent\n"
        "from one loop to the next; so where both steps ran interleaved rounds the gain divides their shares\n"
        "of cuBLAS, and elsewhere their TFLOP/s.\n"
        "\n"
        f"![The speed ladder: each step's TFLOP/s at {size_label(first)}]({image})\n"
        "\n"
        f"TFLOP/s at {size_label(first)} and, ragged, at {', '.join(size_label(s) for s in ragged)} (its share of cuBLAS in\n"
        "parentheses; steps 01 and 05 run tile multiples only):\n"
        "\n"
        + markdown_table(rows) + "\n"
        + ("".join(f"\n![{title}]({os.path.relpath(family_path(svg_path, family), os.path.dirname(page_path))})\n"
                   for family, title in FAMILIES) if families else "")
        + "<!-- numbers: end -->\n"
    )


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
        description="Turn bench_gemm's Google Benchmark JSON into the speed ladder: an SVG and its tables."
    )
    parser.add_argument("--json", default=DEFAULT_JSON, help=f"benchmark JSON (default: {display_path(DEFAULT_JSON)})")
    parser.add_argument("--svg", default=DEFAULT_SVG, help=f"SVG to write (default: {display_path(DEFAULT_SVG)})")
    parser.add_argument("--page", action="append", dest="pages",
                        help="a page whose ladder table to update (default: the README and docs/index.md)")
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1 if the SVG or a page's table differs from what would be written",
    )
    args = parser.parse_args(argv)
    args.pages = args.pages or DEFAULT_PAGES
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        results = load_results(args.json)
        rungs = ladder(results, step_titles())
        families = step_families()
        for rung in rungs:
            rung.family = family_of(rung, families)
        outputs = [(args.svg, render_svg(results, rungs))]
        # The small plots per family, where the run has more square sizes than the ladder's.
        with_families = len([s for s in results.sizes if power_of_two_cube(s)]) > 1
        if with_families:
            outputs += [(family_path(args.svg, family), render_family_svg(results, rungs, family, title))
                        for family, title in FAMILIES]
        for page in args.pages:
            section = ladder_section(results, rungs, args.json, args.svg, page,
                                     families=with_families and os.path.basename(page) == "index.md")
            outputs.append((page, replace_section(read_text(page), section, page).encode("utf-8")))
    except BadInput as e:
        print(f"plot_bench.py: {e}", file=sys.stderr)
        return 2

    if args.check:
        stale = [display_path(path) for path, data in outputs if read_bytes_or_none(path) != data]
        drawn_with = svg_matplotlib_version(read_bytes_or_none(args.svg))
        if stale == [display_path(args.svg)] and drawn_with and drawn_with != matplotlib.__version__:
            # Another matplotlib draws other bytes from the same data: that is not a stale plot.
            print(f"plot_bench.py: {display_path(args.svg)} was drawn with matplotlib {drawn_with}, this is "
                  f"{matplotlib.__version__}: cannot compare it (the tables match)", file=sys.stderr)
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
