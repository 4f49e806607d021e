# Locates the CuTe/CUTLASS headers and defines the interface target tut::cute.
#
# Search order:
#   1. the CUTLASS_DIR cache variable (a CUTLASS checkout, or any folder holding cute/tensor.hpp);
#   2. the CUTLASS_PATH environment variable (same meaning);
#   3. <repo>/.deps/cutlass, where scripts/setup.sh installs the nvidia-cutlass==4.2.0.0 wheel.
set(CUTLASS_DIR "" CACHE PATH "CUTLASS root (holding include/cute) or an include folder holding cute/")

set(_tut_cute_wheel "${PROJECT_SOURCE_DIR}/.deps/cutlass/cutlass_library/source/include")

function(_tut_cute_probe root out)
  set(${out} "" PARENT_SCOPE)
  foreach(dir "${root}/include" "${root}")
    if(EXISTS "${dir}/cute/tensor.hpp" AND EXISTS "${dir}/cutlass/cutlass.h")
      set(${out} "${dir}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

set(CUTE_INCLUDE_DIR "")
if(CUTLASS_DIR)
  _tut_cute_probe("${CUTLASS_DIR}" CUTE_INCLUDE_DIR)
  if(NOT CUTE_INCLUDE_DIR)
    message(FATAL_ERROR "CUTLASS_DIR=${CUTLASS_DIR} holds no cute/tensor.hpp (looked in it and in its include/).")
  endif()
elseif(DEFINED ENV{CUTLASS_PATH} AND NOT "$ENV{CUTLASS_PATH}" STREQUAL "")
  _tut_cute_probe("$ENV{CUTLASS_PATH}" CUTE_INCLUDE_DIR)
  if(NOT CUTE_INCLUDE_DIR)
    message(FATAL_ERROR "CUTLASS_PATH=$ENV{CUTLASS_PATH} holds no cute/tensor.hpp (looked in it and in its include/).")
  endif()
else()
  _tut_cute_probe("${_tut_cute_wheel}" CUTE_INCLUDE_DIR)
endif()

if(NOT CUTE_INCLUDE_DIR)
  message(FATAL_ERROR
    "CuTe headers not found. Either run scripts/setup.sh (installs nvidia-cutlass==4.2.0.0 into .deps/),\n"
    "or point CMake at a CUTLASS checkout: -DCUTLASS_DIR=/path/to/cutlass (or export CUTLASS_PATH).")
endif()
message(STATUS "CuTe headers: ${CUTE_INCLUDE_DIR}")

add_library(tut_cute INTERFACE)
add_library(tut::cute ALIAS tut_cute)
# SYSTEM: the tutorial builds with warnings on; CUTLASS's own warnings are not ours to fix.
target_include_directories(tut_cute SYSTEM INTERFACE "${CUTE_INCLUDE_DIR}")
# Host-only translation units (g++) include CuTe too; they need the toolkit's headers and CCCL's libcu++.
foreach(dir ${CUDAToolkit_INCLUDE_DIRS})
  target_include_directories(tut_cute SYSTEM INTERFACE "${dir}")
  if(EXISTS "${dir}/cccl")
    target_include_directories(tut_cute SYSTEM INTERFACE "${dir}/cccl")
  endif()
endforeach()
target_compile_options(tut_cute INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
