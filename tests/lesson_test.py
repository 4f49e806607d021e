#!/usr/bin/env python3
"""The lesson view (scripts/lesson_view.py) and the lesson diff (scripts/diff_steps.sh).

    tests/lesson_test.py view    # lesson_lines on a sample: tagged lines go, guarded statements dedent
    tests/lesson_test.py steps   # no step's lesson view shows a planted bug
    tests/lesson_test.py lines   # diff_steps.sh --lines: its one line, and its counts add up to the diff's
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from lesson_view import lesson_lines  # noqa: E402

FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)


def test_view():
    sample = [
        "  if constexpr (BUG == Bug::x)   //~bug x: planted",
        "    planted();                   //~bug",
        "  else                           //~bug",
        "    written();                   // the code as written",
        "  if constexpr (BUG != Bug::y) { //~bug y deletes these two lines",
        "    a();",
        "    b();",
        "  }                              //~bug",
        "  if constexpr (BUG != Bug::z)   //~bug z deletes this",
        "    c();",
        "  if constexpr (BUG == Bug::w) return 1;  //~bug w",
        "  d();",
        "enum class Bug : int {",
        "  none = 0,",
        "  //~bug{",
        "  x = 1,",
        "  //~bug}",
        "};",
        "  stress_here();                 //~stress",
        "  e();",
    ]
    want = [
        "  written();                     // the code as written",
        "  a();",
        "  b();",
        "  c();",
        "  d();",
        "enum class Bug : int {",
        "  none = 0,",
        "};",
        "  e();",
    ]
    got = lesson_lines(sample)
    check(got == want, "lesson_lines on the sample:\n" + "\n".join(got))
    untagged = ["int main() {", "  if (x)", "    y();", "}"]
    check(lesson_lines(untagged) == untagged, "lesson_lines changed a file with no tags")


def step_dirs():
    return sorted(d for d in os.listdir(ROOT) if re.match(r"step\d\d_", d) and os.path.isdir(os.path.join(ROOT, d)))


def test_steps():
    # What a planted bug adds to a step's code: a comparison with a Bug other than none, or a tag left
    # in the view. The bug list itself (enum Bug) and the instantiations say none.
    planted = re.compile(r"BUG\s*[!=]=|Bug::(?!none\b)\w+|//~(bug|stress)")
    files = 0
    for d in step_dirs():
        for name in sorted(os.listdir(os.path.join(ROOT, d))):
            if not name.endswith((".cuh", ".hpp", ".cu")):
                continue
            with open(os.path.join(ROOT, d, name), encoding="utf-8") as f:
                lines = f.read().split("\n")
            files += 1
            for i, line in enumerate(lesson_lines(lines)):
                check(not planted.search(line), f"{d}/{name}: the lesson shows a planted bug: {line.strip()}")
    check(files > 13 * 3, f"only {files} step sources read")


def test_lines():
    out = subprocess.run([os.path.join(ROOT, "scripts", "diff_steps.sh"), "--lines", "12", "13"],
                         capture_output=True, text=True, check=True).stdout
    m = re.fullmatch(r"kernel\+config (\d+)  step-only (\d+)  elsewhere (\d+)\n", out)
    check(m is not None, f"--lines printed {out!r}")
    if m:
        diff = subprocess.run([os.path.join(ROOT, "scripts", "diff_steps.sh"), "12", "13"],
                              capture_output=True, text=True, check=True).stdout
        changed = sum(1 for line in diff.split("\n") if re.match(r"[-+](?![-+]{2} )", line))
        check(sum(int(g) for g in m.groups()) == changed,
              f"--lines counts {m.groups()} do not add up to the diff's {changed} changed lines")
    same = subprocess.run([os.path.join(ROOT, "scripts", "diff_steps.sh"), "--lines", "13", "13"],
                          capture_output=True, text=True, check=True).stdout
    check(same == "kernel+config 0  step-only 0  elsewhere 0\n", f"a step against itself: {same!r}")


def main():
    tests = {"view": test_view, "steps": test_steps, "lines": test_lines}
    if len(sys.argv) != 2 or sys.argv[1] not in tests:
        sys.exit("usage: tests/lesson_test.py " + "|".join(tests))
    tests[sys.argv[1]]()
    for f in FAILED:
        print("FAIL:", f)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
