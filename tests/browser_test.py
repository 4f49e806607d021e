#!/usr/bin/python3
"""The --html page in a real browser: headless Chromium opens a step's page at #thread=T and dumps the
DOM after its script ran; exactly the cells of thread T's partition_C must be highlighted.

The expected cells come from the step's printout (its "C rows" and "C cols" lines for --thread T), not
from the page. Exit 0 pass, 1 fail, 77 when no Chromium is installed (ctest: skipped).
Usage: tests/browser_test.py <step binary> <page.html> <thread>
"""
import re
import shutil
from pathlib import Path
import subprocess
import sys


def ranges(text):
    """'{4..7, 68..71}' or '{0, 32, .., 96}' -> the set of integers it names."""
    out = set()
    items = [s.strip() for s in text.strip("{}").split(",")]
    for i, item in enumerate(items):
        if item == "..":  # a strided run: first, second, .., last
            first, second, last = int(items[i - 2]), int(items[i - 1]), int(items[i + 1])
            out.update(range(first, last + 1, second - first))
        elif ".." in item:
            lo, hi = item.split("..")
            out.update(range(int(lo), int(hi) + 1))
        else:
            out.add(int(item))
    return out


def main():
    exe, page, thread = sys.argv[1], sys.argv[2], int(sys.argv[3])
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if browser is None:
        print("browser_test: no Chromium installed: skipped", file=sys.stderr)
        return 77
    printout = subprocess.run([exe, "--print-only", "--seed", "1", "--thread", str(thread)],
                              capture_output=True, text=True, check=True).stdout
    rows_line = re.search(r"^  C rows +(\{[^}]*\})", printout, re.M)
    cols_line = re.search(r"^  C cols +(\{[^}]*\})", printout, re.M)
    if not rows_line or not cols_line:
        print("browser_test: the printout has no 'C rows' and 'C cols' lines", file=sys.stderr)
        return 1
    rows, cols = ranges(rows_line.group(1)), ranges(cols_line.group(1))
    want = {(m, n) for m in rows for n in cols}

    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          Path(page).resolve().as_uri() + "#thread=" + str(thread)],
                         capture_output=True, text=True, timeout=120).stdout
    data = re.search(r'"cols": (\d+).*?"first_m": (\d+), "first_n": (\d+)', dom, re.S)
    if not data:
        print("browser_test: the page's data is not in the dumped DOM", file=sys.stderr)
        return 1
    cols_in_tile, first_m, first_n = (int(x) for x in data.groups())
    lit = {int(i) for i in re.findall(r'<div class="c(?: out)? hl" data-i="(\d+)"', dom)}
    got = {(first_m + i // cols_in_tile, first_n + i % cols_in_tile) for i in lit}
    picked = re.search(r'<div id="picked">([^<]*)</div>', dom)
    print(f"browser_test: {browser} highlights {len(got)} cells for thread {thread}; the printout names {len(want)}"
          f" ({picked.group(1) if picked else 'no pick shown'})")
    if got != want:
        print(f"browser_test: FAIL: missing {sorted(want - got)[:8]}, extra {sorted(got - want)[:8]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
