#!/usr/bin/env python3
"""Fill the generated parts of the pages (docs/*.md) and the README from the sources they quote.

    scripts/gen_pages.py [build]           # rewrite the generated parts in place
    scripts/gen_pages.py [build] --check   # write nothing; exit 1 and name the files that are stale

A page is one Markdown file that reads well on GitHub and in the Doxygen site alike. What it quotes
(code, printouts, speed figures, which GPU a step needs, the links to its neighbours) sits between
two HTML comments, which neither renderer shows:

    <!-- gen:snippet step01_naive/config.hpp tiled_mma -->
    ...written by this script...
    <!-- gen:end -->

The kinds, and what each writes:
  snippet FILE TAG         the lines of FILE between its two `//! [TAG]` markers, as a C++ code block,
                           the code as written (scripts/lesson_view.py drops planted bugs' lines)
  printout FILE [N,M..]    a golden printout (tests/golden/*.txt, or docs/sass/*.txt) as plain text: all of it, its sections
                           N, M; with `lines=tCgC,tCgA` the first line that begins with each word; with
                           "from=LINE" "to=LINE" the lines from one to the other (whole lines, quoted)
  diff OLD NEW FILE TAG    the lesson diff (scripts/diff_steps.sh OLD NEW) of FILE, its hunks that touch the
                           `//! [TAG]` region of NEW's FILE: what the step changed there, as a diff block
  bugs FILE                a step's --list-bugs golden (tests/golden/*_bugs.txt) as a table: the run that
                           plants each bug, what it breaks, and the check that catches it
  bench STEP [SIZE..]      STEP's speeds from the benchmark JSON: its variants beside cuBLAS, per size
  bench-source             one line naming the benchmark run: device, date, file
  interleaved STEP [OTHER..]
                           STEP's interleaved rounds per size: the libraries' own figures and STEP's, its
                           median ratio to each library and to the best, and each OTHER step's to the best
  versus-control STEP      per size, STEP's median ratio to the best library in the rounds, beside the
                           control's (bench_gemm --control: the tuned cuBLASLt timed in the kernel's place)
  speed STEP               STEP's rung of the speed ladder (scripts/bench_results.py, its run): TFLOP/s,
                           the gain over the step before, its share of cuBLAS and of the peak
  exercise STEP            STEP's hands-on exercise: the command that writes a learner's copy with the
                           lines between `//~ex{` and `//~ex}` blanked, the check, and those lines (the
                           solution) folded
  gpu                      which GPU the page's step needs (from its add_tutorial_step() call and the
                           smem line of its golden printout)
  gpu-table                the same for every step, as a table (the README)
  step-facts               per step: its planted bugs, what it is built for, its grid and its own pictures
  nav                      links to the previous page, the index, and the next page

[build] is a configured build folder (default: build), for <build>/tut_steps.json and
<build>/tut_goldens.txt: the registered steps, in order, and their golden printouts. The test
`pages_current` runs --check, so a page that differs from what this script writes fails, as a stale
golden does; scripts/regen_golden.sh runs it after rewriting the goldens.
"""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import bench_results
from lesson_view import exercise_blanked, lesson_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
BENCH_JSON = bench_results.display_path(bench_results.BENCH_JSON)  # json=PATH arguments replace it
# The pages in reading order: the notation page, then the registered steps (tut_steps.json).
FIRST_PAGES = ["notation"]

BEGIN_RE = re.compile(r"^<!-- gen:([a-z-]+)(.*?) -->$")
END_LINE = "<!-- gen:end -->"
MARKER_RE = re.compile(r"^\s*(//!|///|#!?) \[[A-Za-z0-9_-]+\]\s*$")
SIZE_RE = re.compile(r"(\d+)x(\d+)x(\d+)")


class Stale(Exception):
    """A page this script cannot fill; main() reports it in one line and exits 2."""


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


# ---- the quoted sources ---------------------------------------------------------------------------------

def snippet(path, tag):
    lines = read(path).splitlines()
    marks = [i for i, line in enumerate(lines) if line.strip() in (f"//! [{tag}]", f"/// [{tag}]")]
    if len(marks) != 2:
        raise Stale(f"{path} has {len(marks)} '//! [{tag}]' markers, not 2")
    # The code as written: without the lines of planted bugs and stress hooks (scripts/lesson_view.py).
    body = [line for line in lesson_lines(lines[marks[0] + 1:marks[1]]) if not MARKER_RE.match(line)]
    indent = min((len(line) - len(line.lstrip()) for line in body if line.strip()), default=0)
    body = [line[indent:] for line in body]
    return f"`{path}`\n\n```cpp\n" + "\n".join(body).rstrip() + "\n```\n"


def step_view(step_dir, name):
    """FILE of a step folder as scripts/diff_steps.sh compares it: the lesson view, the step's own names
    normalised away (stepNN, "step NN", "step-NN", "Step NN")."""
    n = step_dir.split("_")[0]
    lines = lesson_lines(read(f"{step_dir}/{name}").splitlines())
    sub = lambda s: re.sub(rf"\b([Ss]tep)([ -]){n[4:]}\b", r"\1\2NN",
                           re.sub(rf"\b({re.escape(step_dir)}|{n})\b", "stepNN", s))
    return [sub(line) for line in lines]


def diff(old, new, name, tag):
    """The hunks of `diff -u -d -b` (diff_steps.sh's diff) of file NAME from step OLD to step NEW that touch
    the lines between NEW's two `//! [TAG]` markers, markers dropped, as a diff block."""
    a, b = step_view(old, name), step_view(new, name)
    marks = [i for i, line in enumerate(b) if line.strip() in (f"//! [{tag}]", f"/// [{tag}]")]
    if len(marks) != 2:
        raise Stale(f"{new}/{name} has {len(marks)} '//! [{tag}]' markers, not 2")
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
        for path, lines in zip(paths, (a, b)):
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
        out = subprocess.run(["diff", "-U3", "-d", "-b", *paths], capture_output=True, text=True).stdout.splitlines()
    # Keep the lines of each hunk that lie inside the region (a removed line: where it stood).
    head, body, at, gap = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@"), [], 0, False
    for line in out[2:]:
        m = head.match(line)
        if m:
            at, gap = int(m.group(1)) - 1, bool(body)
            continue
        # A removed line stands before the new line at `at`: those just before the region's first line
        # are what the region replaced.
        first = marks[0] if line[:1] == "-" else marks[0] + 1
        if first <= at < marks[1] and not MARKER_RE.match(line[1:]):
            if gap:
                body.append(" ...")
                gap = False
            body.append(line)
        if line[:1] != "-":
            at += 1
    if not any(line[:1] in "+-" for line in body):
        raise Stale(f"{old} -> {new}: {name} does not change between the '//! [{tag}]' markers")
    return (f"`scripts/diff_steps.sh {old[4:6]} {new[4:6]}`, `{name}`\n\n```diff\n" + "\n".join(body) + "\n```\n")


def speed(step):
    """STEP's rung of the speed ladder, one line in a box, between pages_test.py's markers of its run: its
    TFLOP/s at the ladder's square size, its share of cuBLAS and of the peak, and its gain over the step
    before, as the ladder reckons it (bench_results.ladder)."""
    results = bench_results.load_results(bench_results.BENCH_JSON)
    rungs = {r.step: (i, r) for i, r in enumerate(bench_results.ladder(results, bench_results.step_titles()))}
    if step not in rungs:
        raise Stale(f"{step} is not in {bench_results.display_path(bench_results.BENCH_JSON)}")
    i, rung = rungs[step]
    size = bench_results.LADDER_SIZES[0]
    tflops, gain, of_cublas, of_peak, kind = rung.cells[size]
    where = f"at {bench_results.size_label(size)}"
    share = f"{100 * of_cublas:.0f}% of cuBLAS {kind}" + (" in interleaved rounds" if rung.from_rounds[size] else "")
    if gain is None:
        text = f"{tflops:.2f} TFLOP/s {where}; {share}"
    else:
        _, prev = list(rungs.values())[i - 1]
        n = prev.step[4:6]
        if rung.from_rounds[size] and prev.from_rounds[size]:  # the gain divides the two shares
            text = (f"{tflops:.2f} TFLOP/s {where} (step {n}: {prev.cells[size][0]:.2f}); {share} (step {n}: "
                    f"{100 * prev.cells[size][2]:.0f}%), a gain of ×{gain:.2f}")
        else:
            text = f"{tflops:.2f} TFLOP/s {where}, ×{gain:.2f} over step {n}'s {prev.cells[size][0]:.2f}; {share}"
    path = bench_results.display_path(bench_results.BENCH_JSON)
    return (f"<!-- numbers: run {path} -->\n"
            f"> **Speed:** {text}; {100 * of_peak:.0f}% of the {kind} peak (the speed ladder's session on an H100, "
            f"`{path}`).\n"
            "<!-- numbers: end -->\n")


def exercise(step):
    """The hands-on exercise of STEP: what scripts/exercise.sh blanks, how to check it, the solution."""
    blocks = []
    for name in sorted(os.listdir(os.path.join(ROOT, step))):
        _, found = exercise_blanked(read(f"{step}/{name}").splitlines(), f"{step}/{name}")
        for hint, solution in found:
            indent = min((len(x) - len(x.lstrip()) for x in solution if x.strip()), default=0)
            blocks.append((name, hint, "\n".join(x[indent:] for x in solution)))
    if not blocks:
        raise Stale(f"{step} has no `//~ex{{` lines")
    n = step[4:6]
    where = ", ".join(f"`{name}`" for name, _, _ in blocks)
    hints = "".join(f"\n> {hint}\n" for _, hint, _ in blocks)
    solution = "\n".join(f"`{step}/{name}`\n\n```cpp\n{code}\n```\n" for name, _, code in blocks)
    return (f"`scripts/exercise.sh {n}` writes your copy of the step, `exercises/{step}/`, with the lines of "
            f"{where} that carry its idea replaced by a `TODO(exercise)`, this hint, and a placeholder that "
            "compiles and gets it wrong:\n" + hints + "\n"
            f"Fill them in; `cmake --build build --target {step}_exercise` builds your copy, and "
            f"`ctest --test-dir build -L exercise -R {n}_exercise` runs the step's host tests and its printout "
            "on it and, where there is a GPU, verification.\n\n"
            "<details>\n<summary>The solution: the lines as the step has them</summary>\n\n"
            + solution + "\n</details>\n")


def printout(path, sections=None, until=None):
    text = read(path).rstrip("\n")
    if sections and sections.startswith("from="):
        # from="a line" [to="a line"]: that run of lines, each named by its whole text (spaces aside).
        lines = text.splitlines()
        first = next((i for i, line in enumerate(lines) if line.strip() == sections[5:].strip()), None)
        if first is None:
            raise Stale(f"{path} has no line {sections[5:]!r}")
        last = first
        if until:
            if not until.startswith("to="):
                raise Stale(f"printout {path} {sections}: the next argument is to=, not {until!r}")
            last = next((i for i in range(first, len(lines)) if lines[i].strip() == until[3:].strip()), None)
            if last is None:
                raise Stale(f"{path} has no line {until[3:]!r} after {sections[5:]!r}")
        text = "\n".join(lines[first:last + 1])
    elif sections and sections.startswith("lines="):
        names = sections[len("lines="):].split(",")
        first = {}  # name -> the first line that begins with it
        for line in text.splitlines():
            first.setdefault(line.split()[0] if line.split() else "", line)
        if any(name not in first for name in names):
            raise Stale(f"{path} has no line for each of {names}")
        text = "\n".join(first[name] for name in names)
    elif sections:
        wanted, keep, out = {int(s) for s in sections.split(",")}, False, []
        for line in text.splitlines():
            head = re.match(r"^== (\d+)\. ", line)
            if head:
                keep = int(head.group(1)) in wanted
            elif line.startswith("=="):
                keep = False
            if keep:
                out.append(line)
        if not out:
            raise Stale(f"{path} has no section {sections}")
        text = "\n".join(out).rstrip("\n")
    if "```" in text:
        raise Stale(f"{path} holds ``` and cannot be fenced")
    return "```text\n" + text + "\n```\n"


def bugs(path):
    """The bugs of a step's --list-bugs golden, as a table: the flag, what it breaks, what catches it."""
    rows, head = [], re.compile(r"^([a-z0-9_]+): caught by ([a-z_]+); run: (.*)$")
    for line in read(path).splitlines():
        m = head.match(line)
        if m:
            rows.append({"name": m.group(1), "check": m.group(2), "run": m.group(3)})
        elif rows and line.strip().startswith("breaks: "):
            rows[-1]["breaks"] = line.strip()[len("breaks: "):]
        elif rows and line.strip().startswith("caught: "):
            rows[-1]["caught"] = line.strip()[len("caught: "):]
    if not rows:
        raise Stale(f"{path} lists no bugs")
    out = ["| Run | What it breaks | What catches it |", "|---|---|---|"]
    for r in rows:
        cell = lambda t: t.replace("|", "\\|")
        out.append(f"| `{r['run']}` | {cell(r['breaks'])} | **{r['check']}**: {cell(r['caught'])} |")
    return "\n".join(out) + "\n"


def step_facts(steps):
    """What each step has that the README's flags table would otherwise list by hand: its planted bugs
    (its --list-bugs golden), the code it is built for (its ARCH), how its CTAs visit the tiles (its
    golden printout's grid line) and its own pictures (docs/images/<step>/, less those common/ draws)."""
    svgs = {s["dir"]: sorted(f for f in os.listdir(os.path.join(DOCS, "images", s["dir"])) if f.endswith(".svg"))
            for s in steps}
    # The pictures common/ draws for every step whose objects have them (tut/pictures.hpp).
    shared = {f for f in re.findall(r'"([a-z_]+\.svg)"', read("common/include/tut/pictures.hpp"))}
    out = ["| step | bugs | built for | CTAs | its own pictures |", "|---|---|---|---|---|"]
    for s in steps:
        golden = os.path.join("tests", "golden", s["dir"] + "_bugs.txt")
        n_bugs = 0
        if os.path.exists(os.path.join(ROOT, golden)):
            n_bugs = sum(1 for line in read(golden).splitlines() if re.match(r"^[a-z0-9_]+: caught by ", line))
        grid = next((line.split(None, 2)[2].strip() for line in read(f"tests/golden/{s['dir']}.txt").splitlines()
                     if line.startswith("  grid ")), "")
        grid = re.sub(r"^\(.*?\)\s+", "", grid)
        threads = re.search(r"(\d+) threads", grid)
        kind = "persistent" if grid.startswith("persistent") else "1-D grid" if grid.startswith("1-D") else "2-D grid"
        grid = f"{kind}, {threads.group(1)} threads" if threads else grid
        own = ", ".join(f"`{f}`" for f in svgs[s["dir"]] if f not in shared) or "-"
        arch = f"sm_{s['arch'].replace('-real', '')}" if s.get("arch") else "the default"
        out.append(f"| [{s['dir']}](docs/{s['dir']}.md) | {n_bugs or '-'} | {arch} | {grid} | {own} |")
    return "\n".join(out) + "\n"


# ---- the benchmark --------------------------------------------------------------------------------------

def load_entries():
    """(kernel, variant or "", size) -> the benchmark's entry, every one that ran without error."""
    entries = {}
    for entry in json.loads(read(BENCH_JSON))["benchmarks"]:
        if entry.get("run_type") == "aggregate" or entry.get("error_occurred"):
            continue
        parts = entry["name"].split("/")
        at = max(i for i, p in enumerate(parts) if SIZE_RE.fullmatch(p))  # the last: a variant may read MxNxK
        entries[(parts[0], "/".join(parts[1:at]), parts[at])] = entry
    return entries


def load_bench():
    context = json.loads(read(BENCH_JSON))["context"]
    # (kernel, variant or "", size) -> (TFLOP/s, vs_cuBLAS or None)
    runs = {key: (e["TFLOP/s"], e.get("vs_cuBLAS")) for key, e in load_entries().items()}
    return context["gpu"], str(context["date"])[:10], runs


def table(rows):
    """A Markdown table: the header row, then the rows; the first column left, the others right."""
    head = "| " + " | ".join(rows[0]) + " |\n|" + "|".join(["---"] + ["---:"] * (len(rows[0]) - 1)) + "|\n"
    return head + "".join("| " + " | ".join(r) + " |\n" for r in rows[1:])


def size_label(size):
    m, n, k = SIZE_RE.fullmatch(size).groups()
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def bench_source():
    gpu, date, _ = load_bench()
    with open(os.path.join(ROOT, BENCH_JSON), encoding="utf-8") as f:
        invocations = json.load(f)["context"].get("invocations", [])
    if len(invocations) > 1:  # one session, the steps in groups, each group with its own cuBLAS
        groups = ", then ".join(i["what"] for i in invocations)
        return (f"Measured with `bench_gemm` on one {gpu} on {date}, in one session of {len(invocations)} runs "
                f"({groups}), cuBLAS in each (`{BENCH_JSON}`).\n")
    return f"Measured with `bench_gemm` on one {gpu} on {date}, cuBLAS in the same run (`{BENCH_JSON}`).\n"


def bench(step, sizes=()):
    """One table: per size, the step's default variant and its others, the cuBLAS it is compared with."""
    _, _, runs = load_bench()
    all_sizes = []
    for (_, _, size) in runs:
        if size not in all_sizes:
            all_sizes.append(size)
    sizes = list(sizes) or [s for s in all_sizes if (step, "", s) in runs]
    variants = [""] + sorted({v for (k, v, _) in runs if k == step and v})
    # cublasGemmEx's entries (cublas_KIND), which vs_cuBLAS divides by; not the tuned cuBLASLt's (cublasLt_KIND).
    cublas = sorted({k for (k, v, _) in runs if k.startswith("cublas_")})

    def matching_cublas(size):
        value, ratio = runs[(step, "", size)]
        # The kind the benchmark divided by: the one whose figure gives the recorded ratio.
        best = min(cublas, key=lambda k: abs(runs[(k, "", size)][0] * ratio - value)
                   if (k, "", size) in runs else float("inf"))
        if abs(runs[(best, "", size)][0] * ratio - value) > 1e-6 * value:
            raise Stale(f"{step} at {size}: no cuBLAS figure in {BENCH_JSON} gives its ratio")
        return best

    for size in sizes:
        if (step, "", size) not in runs:
            raise Stale(f"{BENCH_JSON} has no {step} at {size}")
    kinds = {size: matching_cublas(size) for size in sizes}
    if len(set(kinds.values())) != 1:
        raise Stale(f"{step} is compared with more than one cuBLAS kind: {sorted(set(kinds.values()))}")
    kind = kinds[sizes[0]]
    names = [step] + [f"`--variant {v}`" for v in variants[1:]]
    rows = [["M×N×K", f"cuBLAS {kind[len('cublas_'):].replace('_', ' ')}"] + names]
    for size in sizes:
        row = [size_label(size), f"{runs[(kind, '', size)][0]:.2f}"]
        for v in variants:
            tflops, ratio = runs.get((step, v, size), (None, None))
            row.append("" if tflops is None else f"{tflops:.2f} ({ratio:.3f})")
        rows.append(row)
    return table(rows)


# H100 SXM's dense fp16 tensor-core peak with fp32 accumulation, at its boost clock (NVIDIA's datasheet).
PEAK_TFLOPS = 989


def interleaved(step, *others):
    """The interleaved rounds of one step's default variant, per size: both baselines' own figures, the
    step's, the medians of its per-round ratios (and the spread of the one against the better), and the
    same median of each step in \p others."""
    entries = load_entries()
    sizes = []
    for (kernel, variant, size) in entries:
        if kernel == step and not variant and "ratio_best" in entries[(kernel, variant, size)] and size not in sizes:
            sizes.append(size)
    if not sizes:
        raise Stale(f"{BENCH_JSON} has no interleaved rounds of {step}")
    rows, tried = [], set()  # tried: how many algorithms cuBLASLt's heuristic offered, at these sizes
    # A run with CUTLASS's own kernels as a third baseline (bench_gemm's ratio_CUTLASS): their faster one's
    # figure and the step's median ratio to it, and "the best" is then of the three.
    cutlass = any("ratio_CUTLASS" in entries[(step, "", size)] for size in sizes)
    for size in sizes:
        e = entries[(step, "", size)]
        # The baselines of the kind the step is compared with: the pair whose cuBLAS figure gives vs_cuBLAS.
        blas = min((k for (k, v, sz) in entries if k.startswith("cublas_") and sz == size),
                   key=lambda k: abs(entries[(k, "", size)]["TFLOP/s"] * e["vs_cuBLAS"] - e["TFLOP/s"]))
        lt = entries.get(("cublasLt_" + blas[len("cublas_"):], "", size))
        if lt:
            tried.add(int(lt["algos_tried"]))
        row = [size_label(size), f"{entries[(blas, '', size)]['TFLOP/s']:.2f}",
               f"{lt['TFLOP/s']:.2f}" if lt else "-", f"{e['TFLOP/s']:.2f}", f"{e['ratio_cuBLAS']:.3f}",
               f"{e['ratio_cuBLASLt']:.3f}" if "ratio_cuBLASLt" in e else "-"]
        if cutlass:
            figures = [entries[k]["TFLOP/s"] for k in entries if k[0].startswith("cutlass_") and k[2] == size]
            row[3:3] = [f"{max(figures):.2f}" if figures else "-"]
            row.append(f"{e['ratio_CUTLASS']:.3f}" if "ratio_CUTLASS" in e else "-")
        row.append(f"**{e['ratio_best']:.3f}** ({e['ratio_best_min']:.3f}..{e['ratio_best_max']:.3f})")
        for o in others:
            oe = entries.get((o, "", size), {})
            row.append(f"{oe['ratio_best']:.3f}" if "ratio_best" in oe else "-")
        rows.append(row)
    best_of = "/".join(str(t) for t in sorted(tried)) or "-"
    head = (["M×N×K", "cuBLAS (TFLOP/s)", f"cuBLASLt, best of {best_of} (TFLOP/s)"] +
            (["CUTLASS, the faster (TFLOP/s)"] if cutlass else []) + [f"{step} (TFLOP/s)", "÷ cuBLAS", "÷ cuBLASLt"] +
            (["÷ CUTLASS", "÷ the best (min..max of the rounds)"] if cutlass else ["÷ the better (min..max of the rounds)"]) +
            [f"{o}: ÷ the {'best' if cutlass else 'better'}" for o in others])
    return table([head] + rows)


def versus_control(step):
    """Per size, the step's median ratio to the best library in the rounds, beside the control's
    (bench_gemm --control: the tuned cuBLASLt timed in the kernel's place), each with its rounds' spread."""
    entries = load_entries()
    rows = [["M×N×K", f"{step}: ÷ the best (min..max)", "cuBLASLt in its place: ÷ the best (min..max)"]]

    def ratio(e):
        return f"{e['ratio_best']:.3f} ({e['ratio_best_min']:.3f}..{e['ratio_best_max']:.3f})"

    for (kernel, variant, size), e in entries.items():
        if kernel != step or variant or "ratio_best" not in e:
            continue
        control = [c for (k, v, sz), c in entries.items() if k.startswith("control_cuBLASLt_") and sz == size]
        if len(control) != 1 or "ratio_best" not in control[0]:
            raise Stale(f"{BENCH_JSON} has no control at {size}, or more than one (bench_gemm --control)")
        rows.append([size_label(size), ratio(e), ratio(control[0])])
    if len(rows) == 1:
        raise Stale(f"{BENCH_JSON} has no interleaved rounds of {step}")
    return table(rows)


def peak_fraction(*steps):
    """Each step's figure at the square sizes, and its fraction of PEAK_TFLOPS."""
    entries = load_entries()
    sizes = [sz for sz in ("4096x4096x4096", "8192x8192x8192") if all((st, "", sz) in entries for st in steps)]
    rows = [["step"] + [f"{size_label(sz)} (TFLOP/s)" for sz in sizes] + [f"{size_label(sz)}, of {PEAK_TFLOPS}" for sz in sizes]]
    for st in steps:
        figures = [entries[(st, "", sz)]["TFLOP/s"] for sz in sizes]
        rows.append([st] + [f"{f:.2f}" for f in figures] + [f"{100 * f / PEAK_TFLOPS:.0f} %" for f in figures])
    return table(rows)


# ---- the steps' registered facts -------------------------------------------------------------------------

def load_steps(build):
    path = os.path.join(build, "tut_steps.json")
    try:
        with open(path, encoding="utf-8") as f:
            steps = json.load(f)
        with open(os.path.join(build, "tut_goldens.txt"), encoding="utf-8") as f:
            goldens = [line.split(" ", 2) for line in f.read().splitlines()]
    except OSError as e:
        raise Stale(f"cannot read {e.filename} ({e.strerror}): configure the build first") from e
    for facts in steps:
        facts["goldens"] = [(g[1], g[2]) for g in goldens if g[0] == facts["dir"]]
    return steps


def smem_bytes(golden):
    """The shared memory per CTA that a golden printout states, or 0."""
    found = re.search(r"^  smem +(\d+) bytes per CTA", read(f"tests/golden/{golden}.txt"), re.M)
    return int(found.group(1)) if found else 0


def kb(n):
    return f"{n / 1024:g} KB"


def variant_smem(facts):
    """' (98,304 bytes for `--variant 128x128`)' for each golden of another variant that needs other smem."""
    out = ""
    for golden, flags in facts["goldens"]:
        variant = re.search(r"--variant (\S+)", flags)
        other = smem_bytes(golden)
        if variant and other and other != smem_bytes(facts["dir"]):
            out += f" ({kb(other)} for `--variant {variant.group(1)}`)"
    return out


def needs(facts):
    """(compute capability, shared memory, on an older GPU) in words."""
    cc = lambda c: f"{c // 10}.{c % 10}"  # noqa: E731
    if facts["max_cc"]:
        arch = facts["arch_why"]  # "built for sm_90a (...), which runs on compute capability 9.0 only"
    elif facts["min_cc"]:
        arch = f"compute capability {cc(facts['min_cc'])} or newer"
    else:
        arch = "any GPU the build targets (compute capability 8.0 and newer by default)"
    smem = smem_bytes(facts["dir"])
    smem = (f"{smem:,} bytes ({kb(smem)}) of shared memory per CTA{variant_smem(facts)}" if smem
            else "no shared memory")
    older = ("on an older GPU it prints its layouts and exits 77" if facts["min_cc"] and not facts["max_cc"]
             else "on another GPU it prints its layouts and exits 77" if facts["min_cc"]
             else "on a GPU the build has no code for, a CUDA error (exit 3)")
    return arch, smem, older


def gpu_box(facts):
    arch, smem, older = needs(facts)
    return f"> **GPU:** {arch}; {smem}; {older}. `--print-only` needs no GPU.\n"


def gpu_table(steps):
    rows = ["| step | compute capability | shared memory | on a GPU it cannot run on |", "|---|---|---|---|"]
    for facts in steps:
        arch, smem, older = needs(facts)
        rows.append(f"| [{facts['dir']}](docs/{facts['dir']}.md) | {arch} | {smem} | {older} |")
    return "\n".join(rows) + "\n"


def title(page):
    first = read(f"docs/{page}.md").splitlines()[0]
    if not first.startswith("# "):
        raise Stale(f"docs/{page}.md does not begin with a '# ' title")
    return first[2:].strip()


def nav(order, page):
    i = order.index(page)
    parts = []
    if i > 0:
        parts.append(f"[← {title(order[i - 1])}]({order[i - 1]}.md)")
    parts.append("[Contents](index.md)")
    if i + 1 < len(order):
        parts.append(f"[{title(order[i + 1])} →]({order[i + 1]}.md)")
    return " · ".join(parts) + "\n"


# ---- one file ---------------------------------------------------------------------------------------------

def fill(path, steps):
    """The file's text with every generated part rewritten."""
    order = FIRST_PAGES + [s["dir"] for s in steps]
    page = os.path.splitext(os.path.basename(path))[0]
    facts = {s["dir"]: s for s in steps}
    out, lines, i = [], read(path).splitlines(keepends=True), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        begin = BEGIN_RE.match(line.rstrip("\n"))
        if not begin:
            continue
        kind, args = begin.group(1), shlex.split(begin.group(2))
        end = next((j for j in range(i, len(lines)) if lines[j].rstrip("\n") == END_LINE), None)
        if end is None:
            raise Stale(f"{path}:{i}: gen:{kind} has no {END_LINE}")
        # Blank lines around a generated part, so that it never runs into a paragraph (on GitHub, the
        # comment would end the paragraph and the quoted text would start another).
        if (i >= 2 and lines[i - 2].strip()) or (end + 1 < len(lines) and lines[end + 1].strip()):
            raise Stale(f"{path}:{i}: gen:{kind} needs a blank line before it and after its {END_LINE}")
        # The benchmark kinds read BENCH_JSON; a first argument json=PATH reads another run instead (a
        # page quoting it puts that part between pages_test.py's "another run" markers).
        global BENCH_JSON
        saved_json = BENCH_JSON
        if args and args[0].startswith("json="):
            BENCH_JSON, args = args[0][len("json="):], args[1:]
        try:
            if kind == "snippet":
                text = snippet(*args)
            elif kind == "diff":
                text = diff(*args)
            elif kind == "printout":
                text = printout(*args)
            elif kind == "bugs":
                text = bugs(*args)
            elif kind == "bench":
                text = bench(args[0], args[1:])
            elif kind == "interleaved":
                text = interleaved(*args)
            elif kind == "versus-control":
                text = versus_control(*args)
            elif kind == "peak":
                text = peak_fraction(*args)
            elif kind == "bench-source":
                text = bench_source()
            elif kind == "speed":
                text = speed(*args)
            elif kind == "exercise":
                text = exercise(*args)
            elif kind == "gpu":
                text = gpu_box(facts[page])
            elif kind == "gpu-table":
                text = gpu_table(steps)
            elif kind == "step-facts":
                text = step_facts(steps)
            elif kind == "nav":
                text = nav(order, page)
            else:
                raise Stale(f"unknown kind gen:{kind}")
        except (TypeError, KeyError, ValueError, OSError) as e:
            raise Stale(f"{path}:{i}: gen:{kind} {' '.join(args)}: {e!r}") from e
        finally:
            BENCH_JSON = saved_json
        out.append(text)
        out.append(lines[end])
        i = end + 1
    return "".join(out)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    build = os.path.abspath(args[0]) if args else os.path.join(ROOT, "build")
    try:
        steps = load_steps(build)
        files = ["README.md"] + sorted(f"docs/{f}" for f in os.listdir(DOCS) if f.endswith(".md"))
        stale = []
        for path in files:
            old, new = read(path), fill(path, steps)
            if old != new:
                stale.append(path)
                if not check:
                    with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
                        f.write(new)
                    print(f"wrote {path}")
    except Stale as e:
        print(f"gen_pages.py: {e}", file=sys.stderr)
        return 2
    if check and stale:
        print(f"gen_pages.py: out of date, rerun scripts/gen_pages.py: {' '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
