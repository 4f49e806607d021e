#!/bin/sh
# cmake/ptxas_log.sh <log> <compile command...>: the compiler launcher of each step's launch.cu
# (cmake/TutorialStep.cmake). Runs the command, shows what it printed as usual, and keeps that in <log>,
# where the step's SASS test looks for ptxas's warnings (C7510 to C7515: wgmma serialized).
log="$1"
shift
mkdir -p "$(dirname "$log")"
"$@" 2> "$log.tmp"
rc=$?
cat "$log.tmp" >&2
mv -f "$log.tmp" "$log"
exit $rc
