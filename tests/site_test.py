#!/usr/bin/python3
"""The built Doxygen site as a reader sees it: headless Chromium opens the index and every page of the
tutorial (docs/notation.md, then each registered step's), lets it load, and reports what it shows.

A page fails on:
  - an image that did not load;
  - raw markup in its visible text, outside code blocks: `**`, `<tt>`, `\\snippet`, `\\ref`, `{#`;
  - a numbered list that begins a sentence fragment: a list not numbered from 1, or one right after a
    paragraph that stops mid-sentence (a line that began with "16." in the source);
  - a missing link to the previous or the next page, in reading order, and for the index a missing
    link to any page.
Exit 0 pass, 1 fail, 77 when no Chromium is installed (ctest: skipped).
Usage: tests/site_test.py <build>/docs/html <build>/tut_steps.json
"""
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Runs after the page loaded, and appends what it found to the page as JSON, for --dump-dom to print.
PROBE = """
<script>
window.addEventListener('load', function () {
  var contents = document.querySelector('div.contents') || document.body;
  var prose = contents.cloneNode(true);
  prose.querySelectorAll('div.fragment, pre').forEach(function (e) { e.remove(); });
  var found = {
    broken: Array.from(document.images)
                 .filter(function (i) { return !i.complete || i.naturalWidth === 0; })
                 .map(function (i) { return i.getAttribute('src'); }),
    text: prose.innerText,
    lists: Array.from(contents.querySelectorAll('ol')).map(function (o) {
      var p = o.previousElementSibling;
      return {start: o.start, before: p && p.tagName === 'P' ? p.innerText.trim().slice(-60) : ''};
    }),
    links: Array.from(contents.querySelectorAll('a[href]')).map(function (a) {
      return [a.innerText.trim(), a.getAttribute('href')];
    }),
    images: document.images.length
  };
  var out = document.createElement('pre');
  out.id = 'site-probe';
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>
"""
RAW_MARKUP = ["**", "<tt>", "\\snippet", "\\ref", "{#"]


def page_html(page):
    return "index.html" if page == "index" else f"md_docs_{page}.html"


def probe(browser, site, page):
    source = site / page_html(page)
    if not source.exists():
        return None
    probed = site / f"site_probe_{source.name}"
    probed.write_text(source.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    try:
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                              "--dump-dom", probed.as_uri()], capture_output=True, text=True, timeout=120).stdout
    finally:
        probed.unlink()
    found = re.search(r'<pre id="site-probe">(.*?)</pre>', dom, re.S)
    return json.loads(html.unescape(found.group(1))) if found else None


def check(page, found, order):
    bad = [f"image {src} did not load" for src in found["broken"]]
    for raw in RAW_MARKUP:
        at = found["text"].find(raw)
        if at >= 0:
            bad.append(f"raw {raw!r} in the text: ...{found['text'][max(0, at - 30):at + 30]!r}...")
    for ol in found["lists"]:
        if ol["start"] != 1:
            bad.append(f"a numbered list starts at {ol['start']}, after {ol['before']!r}")
        elif ol["before"] and not re.search(r"[.:!?)]$", ol["before"]):
            bad.append(f"a numbered list interrupts a sentence: {ol['before']!r}")
    hrefs = {href.split("#")[0] for _, href in found["links"]}
    if page == "index":
        bad += [f"no link to {p}" for p in order if page_html(p) not in hrefs]
        return bad
    i = order.index(page)
    arrows = {"←": [h for t, h in found["links"] if t.startswith("←")],
              "→": [h for t, h in found["links"] if t.endswith("→")]}
    if i > 0 and page_html(order[i - 1]) not in arrows["←"]:
        bad.append(f"no '←' link to the previous page, {order[i - 1]}")
    if i + 1 < len(order) and page_html(order[i + 1]) not in arrows["→"]:
        bad.append(f"no '→' link to the next page, {order[i + 1]}")
    return bad


def main():
    site, steps = Path(sys.argv[1]).resolve(), json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if browser is None:
        print("site_test: no Chromium installed: skipped", file=sys.stderr)
        return 77
    order = ["notation"] + [s["dir"] for s in steps]
    failed = 0
    for page in ["index"] + order:
        found = probe(browser, site, page)
        bad = ["the page is missing, or did not load"] if found is None else check(page, found, order)
        status = "ok" if not bad else "FAIL"
        shown = "" if found is None else f"{found['images']} images, {len(found['links'])} links"
        print(f"site_test: {page_html(page)}: {status} ({shown})")
        for line in bad:
            print(f"site_test:   {line}", file=sys.stderr)
        failed += bool(bad)
    print(f"site_test: {1 + len(order) - failed} of {1 + len(order)} pages pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
