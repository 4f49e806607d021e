#!/usr/bin/python3
"""The --html page in a real browser: headless Chromium opens a step's page at #thread=T, for two or more
threads, and dumps the DOM after its script ran. For each thread T:
  - exactly the cells of thread T's partition_C are highlighted;
  - the partition text the page shows is thread T's own: its tCgC layout, C rows and C cols are those
    the step's printout gives for --thread T;
and the threads' texts differ from one another (a page that shows one text for every thread fails).

The expected values come from the step's printout, not from the page. Exit 0 pass, 1 fail, 77 when no
Chromium is installed (ctest: skipped).
Usage: tests/browser_test.py <step binary> <page.html> <thread> <thread> ...
"""
import html
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


def printout_of(exe, thread):
    """(tCgC layout, C rows text, C cols text) from the step's printout for --thread T."""
    out = subprocess.run([exe, "--print-only", "--seed", "1", "--thread", str(thread)],
                         capture_output=True, text=True, check=True).stdout
    layout = re.search(r"^  tCgC +(\S+)", out, re.M)
    rows = re.search(r"^  C rows +(\{[^}]*\})", out, re.M)
    cols = re.search(r"^  C cols +(\{[^}]*\})", out, re.M)
    if not layout or not rows or not cols:
        raise SystemExit("browser_test: the printout has no 'tCgC', 'C rows' and 'C cols' lines")
    return layout.group(1), rows.group(1), cols.group(1)


def check_thread(browser, exe, page, thread):
    """The page's text for the thread, and the problems found."""
    layout, rows_text, cols_text = printout_of(exe, thread)
    want = {(m, n) for m in ranges(rows_text) for n in ranges(cols_text)}
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          Path(page).resolve().as_uri() + "#thread=" + str(thread)],
                         capture_output=True, text=True, timeout=120).stdout
    data = re.search(r'"cols": (\d+), "first_row": (\d+), "first_col": (\d+)', dom)  # the first view: the C tile
    shown = re.search(r'<pre id="layout">([^<]*)</pre>', dom)
    if not data or not shown:
        return "", ["the page's data or its partition text is not in the dumped DOM"]
    cols_in_tile, first_m, first_n = (int(x) for x in data.groups())
    lit = {int(i) for i in re.findall(r'<div class="c(?: out)? hl" data-i="(\d+)"', dom)}
    got = {(first_m + i // cols_in_tile, first_n + i % cols_in_tile) for i in lit}
    text = html.unescape(shown.group(1))
    print(f"browser_test: thread {thread}: {len(got)} cells highlighted, the printout names {len(want)}; "
          f"the page says: {' | '.join(text.splitlines())}")
    bad = []
    if got != want:
        bad.append(f"thread {thread}: missing cells {sorted(want - got)[:8]}, extra {sorted(got - want)[:8]}")
    for name, value in (("tCgC", layout), ("C rows", rows_text), ("C cols", cols_text)):
        if not re.search(rf"^{re.escape(name)} +{re.escape(value)}(\s|$)", text, re.M):
            bad.append(f"thread {thread}: the page's text lacks '{name} {value}', which the printout says")
    return text, bad


def main():
    exe, page, threads = sys.argv[1], sys.argv[2], [int(t) for t in sys.argv[3:]]
    if len(threads) < 2:
        print("usage: browser_test.py <step binary> <page.html> <thread> <thread> ...", file=sys.stderr)
        return 2
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if browser is None:
        print("browser_test: no Chromium installed: skipped", file=sys.stderr)
        return 77
    texts, bad = {}, []
    for thread in threads:
        texts[thread], problems = check_thread(browser, exe, page, thread)
        bad += problems
    if len(set(texts.values())) != len(threads):
        bad.append("two threads show the same partition text")
    for line in bad:
        print(f"browser_test: FAIL: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
