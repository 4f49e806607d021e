#!/usr/bin/env python3
"""Each glossary term linked where a page first uses it.

    scripts/glossary_links.py check    # exit 1, naming each page and term whose first use is not a link
    scripts/glossary_links.py fix      # link each first use that is not one yet, in place

The pages are README.md and docs/*.md, docs/glossary.md aside. A term's first use is its first
occurrence in the page's prose: code (fenced blocks and `inline`), headings, HTML comments and tags,
the parts scripts/gen_pages.py writes (between `<!-- gen:... -->` and `<!-- gen:end -->`) or
scripts/plot_bench.py writes (between `<!-- ladder:begin ... -->` and `<!-- ladder:end -->`) and the
text of links to elsewhere do not count. The link goes to the term's heading in docs/glossary.md.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GLOSSARY = "glossary.md"

# term: (its pattern in prose, its anchor in docs/glossary.md: GitHub's slug of the heading)
TERMS = {
    "CTA": (r"\bCTAs?\b", "cta"),
    "tile": (r"(?<![\w-])[Tt]iles?\b(?!-)", "tile"),
    "k-tile": (r"(?<![\w-])k-tiles?\b", "k-tile"),
    "k-block": (r"(?<![\w-])k-blocks?\b", "k-block"),
    "atom": (r"\b[Aa]toms?\b", "atom"),
    "TV layout": (r"\bTV layouts?\b", "tv-layout"),
    "wavefront": (r"\b[Ww]avefronts?\b", "wavefront"),
    "warpgroup": (r"\b[Ww]arpgroups?\b", "warpgroup"),
    "mbarrier": (r"\b[Mm]barriers?\b", "mbarrier"),
    "parity": (r"\b[Pp]arit(?:y|ies)\b", "mbarrier"),
    "proxy": (r"\b[Pp]rox(?:y|ies)\b", "proxy"),
    "tensor map": (r"\b[Tt]ensor maps?\b", "tensor-map"),
    "epilogue": (r"\b[Ee]pilogues?\b", "epilogue"),
    "persistent": (r"\b[Pp]ersistent\b", "persistent"),
    "ping-pong": (r"\b[Pp]ing-pong\b", "ping-pong"),
    "cluster": (r"\b[Cc]lusters?\b", "cluster"),
}

LINK_RE = re.compile(r"\[([^\]\n]*)\]\(([^)\s]*)\)")


def pages():
    return [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != GLOSSARY)


def target(page, anchor):
    prefix = "docs/" if page.parent == ROOT else ""
    return f"{prefix}{GLOSSARY}#{anchor}"


def prose_mask(text):
    """A copy of text with everything that is not prose blanked (same length, newlines kept)."""
    mask = list(text)

    def blank(a, b):
        for i in range(a, b):
            if mask[i] != "\n":
                mask[i] = " "

    for m in re.finditer(r"^```.*?^```[^\n]*$", text, re.S | re.M):
        blank(m.start(), m.end())
    for m in re.finditer(r"<!-- gen:(?!end)[^\n]*-->.*?<!-- gen:end -->", text, re.S):
        blank(m.start(), m.end())
    for m in re.finditer(r"<!-- ladder:begin[^\n]*-->.*?<!-- ladder:end -->", text, re.S):
        blank(m.start(), m.end())
    for m in re.finditer(r"<!--.*?-->", text, re.S):
        blank(m.start(), m.end())
    for m in re.finditer(r"^#+ [^\n]*$", text, re.M):
        blank(m.start(), m.end())
    for m in re.finditer(r"`[^`\n]*`", text):
        blank(m.start(), m.end())
    for m in re.finditer(r"<[^>\n]*>", text):
        blank(m.start(), m.end())
    for m in LINK_RE.finditer(text):
        blank(m.start(2) - 2, m.end())  # the target always
        if GLOSSARY not in m.group(2):
            blank(m.start(), m.end())   # and the text of a link to elsewhere
    return "".join(mask)


def first_uses(page, text):
    """(term, start, end, linked) for each term the page uses: its first use in prose."""
    masked = prose_mask(text)
    glossary_links = [(m.start(1), m.end(1), m.group(2)) for m in LINK_RE.finditer(text) if GLOSSARY in m.group(2)]
    out = []
    for term, (pattern, anchor) in TERMS.items():
        m = re.search(pattern, masked)
        if not m:
            continue
        linked = any(a <= m.start() and m.end() <= b and t.endswith(f"#{anchor}") for a, b, t in glossary_links)
        out.append((term, m.start(), m.end(), linked))
    return out


def main(argv):
    if argv not in (["check"], ["fix"]):
        print(__doc__, file=sys.stderr)
        return 2
    bad = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        todo = [u for u in first_uses(page, text) if not u[3]]
        if argv == ["fix"]:
            for term, a, b, _ in sorted(todo, key=lambda u: -u[1]):  # from the end: offsets stay valid
                text = f"{text[:a]}[{text[a:b]}]({target(page, TERMS[term][1])}){text[b:]}"
            page.write_text(text, encoding="utf-8")
            # A link inside another term's first use (parity inside mbarrier's sentence) is fine; recheck.
            todo = [u for u in first_uses(page, text) if not u[3]]
        bad += [f"{page.relative_to(ROOT)}: the first '{t}' is not a link to {target(page, TERMS[t][1])}"
                for t, _, _, _ in todo]
    for line in bad:
        print(f"glossary_links: {line}", file=sys.stderr)
    print(f"glossary_links {argv[0]}: {len(pages())} pages, {len(TERMS)} terms, {len(bad)} first uses not linked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
