#!/usr/bin/env python3
"""A source file as the lesson shows it: without the lines that belong to something else.

    scripts/lesson_view.py FILE        # prints FILE so

A line whose code ends in a `//~bug` comment belongs to a planted bug (--bug), and so do the lines from
`//~bug{` to `//~bug}`; `//~stress` tags the --stress hooks the same way. Both go. The statement such a
line guarded (`if constexpr (BUG != ...)`, an `else`) loses the indent it had under it, so what is left
reads as the code as written:

    if constexpr (BUG == Bug::x)  //~bug x: ...
      planted();                  //~bug
    else                          //~bug
      written();                              ->   written();

A hands-on exercise marks the lines that carry a step's idea (scripts/exercise.sh blanks them in a
learner's copy, through exercise_blanked()): `//~ex{ hint` opens them, `//~ex}` closes them, and
`//~ex= code` lines between hold the placeholder the copy gets. Each marker is a line of its own, and
goes; the lines it marks stay.

scripts/diff_steps.sh diffs these views, and scripts/gen_pages.py quotes them.
"""

import re
import sys

TAG_RE = re.compile(r"//~(bug|stress)\b")
BLOCK_BEGIN_RE = re.compile(r"^\s*//~(bug|stress)\{")
BLOCK_END_RE = re.compile(r"^\s*//~(bug|stress)\}\s*$")
EXERCISE_MARKER_RE = re.compile(r"^\s*//~ex[{}=]")


def lesson_lines(lines):
    """The lines of a file (without their newlines) as the lesson shows them. A guard's statement is
    one line, or a block the guard opens with `{` and a tagged `}` closes."""
    out = []
    in_block = False  # between //~bug{ and //~bug}
    blocks = 0        # tagged guards whose `{` block is open: its lines lose 2 spaces each
    pending = False   # a tagged guard without a block: the next line is its statement
    for line in lines:
        if in_block:
            in_block = not BLOCK_END_RE.match(line)
            continue
        if BLOCK_BEGIN_RE.match(line):
            in_block = True
            continue
        if EXERCISE_MARKER_RE.match(line):
            continue
        tag = TAG_RE.search(line)
        if tag:
            code = line[: tag.start()].strip()
            if code.startswith("if") and code.endswith("{"):
                blocks += 1
            elif code == "}" and blocks:
                blocks -= 1
            else:
                # A guard (`if constexpr (...)`, `else`) waits for its statement; a tagged statement is
                # the one a pending guard was waiting for.
                pending = (code.startswith("if") or code == "else") and not code.endswith(";")
            continue
        drop = 2 * blocks + (2 if pending else 0)
        if drop and line.startswith(" " * drop):
            line = line[drop:]
            # The comment keeps its column.
            line = re.sub(r"(\S)(  +)(//.*)$", lambda m: m.group(1) + m.group(2) + " " * drop + m.group(3), line, count=1)
        pending = False
        out.append(line)
    return out


EXERCISE_BEGIN_RE = re.compile(r"^(\s*)//~ex\{\s*(.*)$")
EXERCISE_END_RE = re.compile(r"^\s*//~ex\}\s*$")
EXERCISE_HOLD_RE = re.compile(r"^\s*//~ex= ?(.*)$")


def exercise_blanked(lines, where="source"):
    """A hands-on exercise's blank copy of a file's lines, and its blocks: (the copy's lines, [(hint,
    solution lines)]). In the copy each `//~ex{` ... `//~ex}` block becomes `// TODO(exercise): hint` and
    its `//~ex=` placeholder lines, at the marker's indent. A malformed block raises ValueError."""
    copy, blocks, indent = [], [], None
    for n, line in enumerate(lines, 1):
        opened, held = EXERCISE_BEGIN_RE.match(line), EXERCISE_HOLD_RE.match(line)
        if opened:
            if indent is not None:
                raise ValueError(f"{where}:{n}: //~ex{{ inside another")
            indent = opened.group(1)
            blocks.append((opened.group(2), []))
            copy.append(f"{indent}// TODO(exercise): {opened.group(2)}")
        elif EXERCISE_END_RE.match(line):
            if indent is None:
                raise ValueError(f"{where}:{n}: //~ex}} without //~ex{{")
            indent = None
        elif indent is not None:
            if held:
                copy.append(indent + held.group(1))
            else:
                blocks[-1][1].append(line)
        else:
            copy.append(line)
    if indent is not None:
        raise ValueError(f"{where}: //~ex{{ is never closed")
    return copy, [(hint, lesson_lines(solution)) for hint, solution in blocks]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/lesson_view.py FILE")
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    lines = lesson_lines(text.split("\n"))
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
