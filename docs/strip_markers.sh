#!/bin/sh
# Doxygen's INPUT_FILTER: the excerpt markers of the sources (a line that is only `//! [tag]` or
# `/// [tag]`, which scripts/gen_pages.py quotes between) are no documentation, so each becomes an empty
# line (the line count stays, and with it every line number the site shows).
exec sed -e 's|^[[:space:]]*//[!/] \[[A-Za-z0-9_-]*\][[:space:]]*$||' "$1"
