#!/usr/bin/python3
"""Every picture legible where it stands, as GitHub shows the pages.

    tests/pictures_legible.py            # every SVG the README and docs/*.md show
    tests/pictures_legible.py --list     # the same, one line per picture, worst first (exit 0)

GitHub shows a page's text 830 px wide and scales a picture down to that width (`max-width: 100%`), or
to the `width` its <img> tag gives. Headless Chromium lays each picture out at that width, as the page
would, and measures every <text> of the SVG at its scale: its font size in screen pixels, and its box.
A picture fails when a text renders under 9 px, or when two texts' boxes overlap (by more than a pixel
each way). Exit 0 pass, 1 fail, 77 when no Chromium is installed (ctest: skipped).
"""
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTENT_WIDTH = 830  # GitHub's Markdown body at its default page width, in CSS px
MIN_TEXT_PX = 9.0
IMAGE_MD = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.svg)\)")
IMAGE_TAG = re.compile(r"<img\b[^>]*\bsrc=\"([^\"]+\.svg)\"[^>]*>")

# Lays each picture out as GitHub would (an <img> at the page's width, for its displayed width), then
# measures its texts in an inline copy scaled to that width, and appends the findings as JSON.
PROBE = """
<script>
window.addEventListener('load', function () {
  var found = [];
  document.querySelectorAll('div.picture').forEach(function (box) {
    var img = box.querySelector('img'), svg = box.querySelector('svg');
    var shown = img.getBoundingClientRect().width;
    svg.removeAttribute('height');
    svg.style.width = shown + 'px';
    svg.style.height = 'auto';
    var texts = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var label = t.textContent.trim();
      if (!label) return;
      var m = t.getScreenCTM(), r = t.getBoundingClientRect();
      var px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
      texts.push({label: label.slice(0, 40), px: px, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
    });
    // Overlaps, through a grid of 40 px cells so that a picture of thousands of labels stays quick.
    var cells = {}, overlaps = [], seen = {};
    texts.forEach(function (t, i) {
      for (var cx = Math.floor(t.x0 / 40); cx <= Math.floor(t.x1 / 40); ++cx)
        for (var cy = Math.floor(t.y0 / 40); cy <= Math.floor(t.y1 / 40); ++cy) {
          var key = cx + ',' + cy;
          (cells[key] = cells[key] || []).forEach(function (j) {
            var u = texts[j], pair = j + ',' + i;
            if (seen[pair]) return;
            seen[pair] = true;
            var w = Math.min(t.x1, u.x1) - Math.max(t.x0, u.x0), h = Math.min(t.y1, u.y1) - Math.max(t.y0, u.y0);
            if (w > 1 && h > 1) overlaps.push([u.label, t.label]);
          });
          cells[key].push(i);
        }
    });
    var small = texts.filter(function (t) { return t.px < %(min)s - 0.05; });
    var least = texts.reduce(function (a, t) { return a && a.px <= t.px ? a : t; }, null);
    found.push({src: box.getAttribute('data-src'), shown: shown, texts: texts.length,
                least: least ? [least.px, least.label] : null, small: small.length,
                small_first: small.length ? small[0].label : '', overlaps: overlaps.length,
                overlap_first: overlaps.length ? overlaps[0] : null});
  });
  var out = document.createElement('pre');
  out.id = 'legible-probe';
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>
""" % {"min": MIN_TEXT_PX}


def pictures(page):
    """(the SVG's path, the <img> tag as the page writes it) for each SVG the page shows, in order."""
    text = page.read_text(encoding="utf-8")
    found = [(m.start(), m.group(1), f'<img src="{m.group(1)}">') for m in IMAGE_MD.finditer(text)]
    found += [(m.start(), m.group(1), m.group(0)) for m in IMAGE_TAG.finditer(text)]
    out = []
    for _, src, tag in sorted(found):
        if re.match(r"[a-z]+://", src):
            continue
        path = (page.parent / src).resolve()
        out.append((path, tag))
    return out


def probe(browser, page):
    boxes = []
    for path, tag in pictures(page):
        if not path.exists():
            raise SystemExit(f"pictures_legible: {page.relative_to(ROOT)} shows {path}, which does not exist")
        svg = path.read_text(encoding="utf-8")
        svg = svg[svg.index("<svg"):]  # no XML declaration or doctype inside the HTML
        img = re.sub(r'src="[^"]*"', f'src="{path.as_uri()}"', tag)
        boxes.append(f'<div class="picture" data-src="{html.escape(str(path.relative_to(ROOT)))}">{img}'
                     f'<div style="height: 0; overflow: hidden">{svg}</div></div>')
    if not boxes:
        return []
    doc = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>body {{ margin: 0; width: {CONTENT_WIDTH}px; }} "
           "img { max-width: 100%; box-sizing: content-box; }</style></head><body>" + "".join(boxes) + PROBE +
           "</body></html>")
    with tempfile.NamedTemporaryFile("w", suffix=".html", encoding="utf-8", delete=False) as f:
        f.write(doc)
        name = Path(f.name)
    try:
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                              f"--window-size={CONTENT_WIDTH + 32},1000", "--allow-file-access-from-files",
                              "--dump-dom", name.as_uri()], capture_output=True, text=True, timeout=300).stdout
    finally:
        name.unlink()
    found = re.search(r'<pre id="legible-probe">(.*?)</pre>', dom, re.S)
    if not found:
        raise SystemExit(f"pictures_legible: no measurements came back for {page.relative_to(ROOT)}")
    return json.loads(html.unescape(found.group(1)))


def main(argv):
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    if browser is None:
        print("pictures_legible: no Chromium installed: skipped")
        return 77
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    rows, bad = [], []
    for page in pages:
        for p in probe(browser, page):
            where = f"{page.relative_to(ROOT)}: {p['src']} at {p['shown']:.0f} px"
            least = p["least"] or [float("inf"), ""]
            rows.append((least[0], f"{least[0]:5.1f} px smallest ({least[1]!r}), {p['small']:4d} texts under "
                                   f"{MIN_TEXT_PX:g} px, {p['overlaps']:4d} overlaps  {where}"))
            if p["small"]:
                bad.append(f"{where}: {p['small']} of {p['texts']} texts render under {MIN_TEXT_PX:g} px, the smallest "
                           f"{least[0]:.1f} px ({least[1]!r})")
            if p["overlaps"]:
                bad.append(f"{where}: {p['overlaps']} pairs of texts overlap, e.g. {p['overlap_first']}")
    if "--list" in argv:
        print("\n".join(line for _, line in sorted(rows)))
        return 0
    sys.stderr.write("".join(f"pictures_legible: {line}\n" for line in bad))
    print(f"pictures_legible: {len(rows)} pictures on {len(pages)} pages, {len(bad)} problems")
    return int(bool(bad))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
