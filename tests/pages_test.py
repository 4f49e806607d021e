#!/usr/bin/env python3
"""Checks on the page sources (docs/*.md) and the README, as GitHub shows them.

    tests/pages_test.py github    # no Doxygen command or heading label in a page, no code in a heading,
                                  # every code block ```cpp or ```text; each step page shows its kernel
    tests/pages_test.py numbers   # every TFLOP/s figure and ratio is one the benchmark JSON holds
    tests/pages_test.py words     # each step page shows at most 3,000 words, the README 1,500

`numbers` reads every figure followed by "TFLOP/s" (or "TF"), every "N% of cuBLAS" (a vs_cuBLAS or
ratio_cuBLAS counter) and "N% of cuBLASLt" (a ratio_cuBLASLt counter), and every cell of a table
introduced by a paragraph that says "TFLOP/s", and fails on one that no benchmark of
docs/bench/*.json rounds to, at the number of decimals written. A page that quotes another run (the
history of a choice) puts it between `<!-- numbers: another run -->` and `<!-- numbers: end -->`, and
says so in its text; a section that quotes a later run of docs/bench/ puts it between
`<!-- numbers: run docs/bench/FILE.json -->` and `<!-- numbers: end -->`, and is checked against that
file.

`words` counts what a reader sees before opening anything: every word outside a `<details>` block and
an HTML comment, code, printouts and tables included. What a maintainer needs (what the checks cover,
SASS tables, bug tables, experiments not kept) folds into `<details>`, which GitHub shows closed.
Exit 0 pass, 1 fail.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from bench_results import BENCH_JSON as _BENCH_JSON  # noqa: E402  (the pages' one run, named once)

BENCH_JSON = Path(_BENCH_JSON)
DOXYGEN_COMMANDS = re.compile(r"\\(snippet|include|verbinclude|image|ref|htmlonly|endhtmlonly|dontinclude)\b")
FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) ?(?:TFLOP/s|TF)\b")
PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)% of cuBLAS(?!Lt)")
PERCENT_LT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)% of cuBLASLt")
CELL_NUMBER = re.compile(r"^\**(\d+(?:\.\d+)?)(?: \((\d+(?:\.\d+)?)\))?\**$")


def pages():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def outside_fences(text):
    """The text with fenced code blocks blanked (line numbers kept): code and printouts hold no figures."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def check_github():
    bad = []
    for page in pages():
        for n, line in enumerate(outside_fences(page.read_text(encoding="utf-8")), 1):
            found = DOXYGEN_COMMANDS.search(line)
            if found:
                bad.append(f"{page.relative_to(ROOT)}:{n}: Doxygen command \\{found.group(1)}, which GitHub shows raw")
            if re.match(r"^#+ .*\{#\w+\}\s*$", line):
                bad.append(f"{page.relative_to(ROOT)}:{n}: a heading label {{#...}}, which GitHub shows raw")
            if re.match(r"^#+ .*`", line) and page.parent.name == "docs":
                bad.append(f"{page.relative_to(ROOT)}:{n}: code in a heading, which Doxygen shows as raw <tt>")
        fenced = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                # ```text and ```diff: Doxygen shows both as plain text; GitHub colours a diff's lines.
                if not fenced and line.strip() not in ("```cpp", "```text", "```diff"):
                    bad.append(f"{page.relative_to(ROOT)}:{n}: a code block that is not ```cpp, ```text or ```diff "
                               "(Doxygen would highlight it as C++ and link its words)")
                fenced = not fenced
        # A folded block as both renderers take it: `<details>` alone on its line, `<summary>` (plain text)
        # on the next, a blank line; `</details>` alone, after a blank line (docs/strip_markers.sh).
        lines = page.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            if "<details" in line and (line != "<details>" or n + 1 >= len(lines)
                                       or not re.fullmatch(r"<summary>[^<>`*]+</summary>", lines[n])
                                       or lines[n + 1] != ""):
                bad.append(f"{page.relative_to(ROOT)}:{n}: a <details> block opens with `<details>`, then "
                           "`<summary>plain text</summary>`, then a blank line")
            if "</details>" in line and (line != "</details>" or lines[n - 2] != ""):
                bad.append(f"{page.relative_to(ROOT)}:{n}: `</details>` stands alone, after a blank line")
    steps = sorted((ROOT / "docs").glob("step*.md"))
    if not steps:
        bad.append("docs/ holds no step page")
    for page in steps:
        text = page.read_text(encoding="utf-8")
        step = page.stem
        kernel = re.search(rf"<!-- gen:snippet {step}/kernel\.cuh \S+ -->\n`[^`]+`\n\n```cpp\n(.+?)\n```", text, re.S)
        if not kernel or not kernel.group(1).strip():
            bad.append(f"{page.relative_to(ROOT)}: no excerpt of {step}/kernel.cuh as a ```cpp block")
    for line in bad:
        print(f"pages_test: {line}", file=sys.stderr)
    print(f"pages_test github: {len(pages())} files, {len(steps)} step pages, {len(bad)} problems")
    return 1 if bad else 0


def bench_values(path=BENCH_JSON):
    data = json.loads(path.read_text(encoding="utf-8"))
    tflops, ratios, lt_ratios = [], [], []
    for entry in data["benchmarks"]:
        if entry.get("run_type") == "aggregate" or entry.get("error_occurred"):
            continue
        tflops.append(entry["TFLOP/s"])
        # Against cuBLAS: the entry's own (vs_cuBLAS) and the interleaved rounds' median (ratio_cuBLAS).
        ratios += [entry[key] for key in ("vs_cuBLAS", "ratio_cuBLAS") if entry.get(key) is not None]
        if entry.get("ratio_cuBLASLt") is not None:
            lt_ratios.append(entry["ratio_cuBLASLt"])
    return tflops, ratios, lt_ratios


def matches(figure, values, scale=1.0):
    """Whether some value, times scale, rounds to the figure at the figure's own decimals."""
    decimals = len(figure.split(".")[1]) if "." in figure else 0
    return any(f"{v * scale:.{decimals}f}" == figure for v in values)


def check_numbers():
    default = bench_values()
    bad, count = [], 0
    run = re.compile(r"^<!-- numbers: run (\S+\.json) -->$")
    for page in pages():
        lines = outside_fences(page.read_text(encoding="utf-8"))
        other_run, table_of_figures, paragraph, paragraph_done = False, False, "", True
        json_path, (tflops, ratios, lt_ratios) = BENCH_JSON, default
        for n, line in enumerate(lines, 1):
            where = f"{page.relative_to(ROOT)}:{n}"
            named = run.match(line.strip())
            if line.strip() == "<!-- numbers: another run -->":
                other_run = True
            elif named:
                json_path = ROOT / named.group(1)
                if not json_path.is_file():
                    bad.append(f"{where}: {named.group(1)} does not exist")
                    json_path = BENCH_JSON
                tflops, ratios, lt_ratios = bench_values(json_path)
            elif line.strip() == "<!-- numbers: end -->":
                other_run = False
                json_path, (tflops, ratios, lt_ratios) = BENCH_JSON, default
            if other_run:
                continue
            if line.startswith("|"):
                if table_of_figures:
                    for cell in [c.strip() for c in line.strip().strip("|").split("|")][1:]:
                        found = CELL_NUMBER.match(cell)
                        if not found:
                            continue
                        count += 1
                        if not matches(found.group(1), tflops):
                            bad.append(f"{where}: {found.group(1)} TFLOP/s is in no benchmark of {json_path.name}")
                        if found.group(2) and not matches(found.group(2), ratios):
                            bad.append(f"{where}: ratio {found.group(2)} is in no benchmark of {json_path.name}")
            elif line.strip().startswith("<!--"):
                pass
            elif not line.strip():
                paragraph_done = True
            else:
                # A table of figures: one whose introducing paragraph says TFLOP/s.
                paragraph = line if paragraph_done else paragraph + " " + line
                paragraph_done = False
                table_of_figures = "TFLOP/s" in paragraph
            for found in FIGURE.finditer(line):
                count += 1
                if not matches(found.group(1), tflops):
                    bad.append(f"{where}: {found.group(0)} is in no benchmark of {json_path.name}")
            for pattern, values in ((PERCENT, ratios), (PERCENT_LT, lt_ratios)):
                for found in pattern.finditer(line):
                    count += 1
                    if not matches(found.group(1), values, 100.0):
                        bad.append(f"{where}: {found.group(0)} is no ratio in {json_path.name}")
        if other_run:
            bad.append(f"{page.relative_to(ROOT)}: <!-- numbers: another run --> has no <!-- numbers: end -->")
    for line in bad:
        print(f"pages_test: {line}", file=sys.stderr)
    print(f"pages_test numbers: {count} figures checked against {BENCH_JSON.relative_to(ROOT)}, {len(bad)} wrong")
    return 1 if bad or count == 0 else 0


# The most words a reader sees on a page before opening a <details> block.
WORD_LIMITS = {"step": 3000, "README": 1500}


def visible_words(text):
    """The words outside HTML comments and <details> blocks (nested ones too): what GitHub shows open."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    words, depth = 0, 0
    for line in text.splitlines():
        opened = len(re.findall(r"<details\b", line))
        closed = len(re.findall(r"</details>", line))
        if depth == 0 and not opened:
            words += len(line.split())
        depth = max(depth + opened - closed, 0)
    return words


def check_words():
    bad, rows = [], []
    for page in pages():
        kind = "README" if page.name == "README.md" else "step" if page.name.startswith("step") else None
        if kind is None:
            continue
        n = visible_words(page.read_text(encoding="utf-8"))
        rows.append(f"{n:6d} {page.relative_to(ROOT)}")
        if n > WORD_LIMITS[kind]:
            bad.append(f"{page.relative_to(ROOT)}: {n} visible words, more than {WORD_LIMITS[kind]}: fold what a "
                       "maintainer needs into <details>")
    print("\n".join(rows))
    for line in bad:
        print(f"pages_test: {line}", file=sys.stderr)
    print(f"pages_test words: {len(rows)} pages, {len(bad)} over their limit")
    return 1 if bad or not rows else 0


def main(argv):
    checks = {"github": check_github, "numbers": check_numbers, "words": check_words}
    if len(argv) != 1 or argv[0] not in checks:
        print(f"usage: pages_test.py {'|'.join(checks)}", file=sys.stderr)
        return 2
    return checks[argv[0]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
