#!/bin/sh
# Doxygen's INPUT_FILTER: the excerpt markers of the sources (a line that is only `//! [tag]` or
# `/// [tag]`, which scripts/gen_pages.py quotes between) are no documentation, so each becomes an empty
# line (the line count stays, and with it every line number the site shows).
# In the pages, a link to a glossary term, `(glossary.md#k-tile)`, points at GitHub's anchor of the
# term's heading. Doxygen makes no such anchors: the glossary's headings get labels ({#glossary_k_tile})
# and the links refer to them (@ref glossary_k_tile).
# A folded block, `<details>` with its `<summary>` on the next line, and its `</details>`: Doxygen 1.9
# closes a <details> at the end of its paragraph, so each tag passes through as raw HTML (\htmlonly).
case "$1" in
  *.md) exec /usr/bin/python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
label = lambda s: "glossary_" + re.sub(r"[^a-z0-9]+", "_", s.lower())
text = re.sub(r"\]\((?:docs/)?glossary\.md#([a-z0-9-]+)\)", lambda m: f"](@ref {label(m.group(1))})", text)
text = re.sub(r"^<details>\n(<summary>.*</summary>)$", lambda m: f"\\htmlonly<details>{m.group(1)}\\endhtmlonly\n",
              text, flags=re.M)
text = re.sub(r"^</details>$", r"\\htmlonly</details>\\endhtmlonly", text, flags=re.M)
if text.startswith("# Glossary"):
    text = re.sub(r"^## (.+)$", lambda m: f"## {m.group(1)} {{#{label(m.group(1))}}}", text, flags=re.M)
sys.stdout.write(text)
PY
  ;;
  *) exec sed -e 's|^[[:space:]]*//[!/] \[[A-Za-z0-9_-]*\][[:space:]]*$||' "$1" ;;
esac
