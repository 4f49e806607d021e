# cmake -DEXE=<step binary> -DLOG=<build>/ptxas/<dir>.log -P tests/sass_check.cmake
# The SASS test of one step: `<step> --sass` must pass (every instruction class the step declares is in
# its kernels' SASS, and nothing spills), and what nvcc and ptxas printed while building its kernels
# (cmake/ptxas_log.sh keeps it) must hold none of ptxas's "wgmma serialized" warnings: C7510 and its kin
# C7511..C7515 (too few registers for the wgmma pipeline; accumulators read or written between a wgmma and
# its wait), each of which stops the wgmmas of a k-tile from overlapping.
execute_process(COMMAND ${EXE} --sass OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --sass exited ${rc}")
endif()
if(NOT EXISTS ${LOG})
  message(FATAL_ERROR "no ${LOG}: the step's kernels were not built through cmake/ptxas_log.sh")
endif()
file(STRINGS ${LOG} serialized REGEX "C751[0-9]|wgmma.mma_async instructions are serialized")
if(serialized)
  string(REPLACE ";" "\n" serialized "${serialized}")
  message(FATAL_ERROR "ptxas serialized wgmma while building the step:\n${serialized}")
endif()
message("ptxas: no wgmma serialized (C751x) in ${LOG}")
