# add_tutorial_step(<dir> TITLE "<one line>"
#                   SIZES ANY|ANY_MN|TILE_MULTIPLES [WHY "<why>"] [LIFTED_BY <step> ["<what it runs>"]]
#                   [MIN_CC <cc>] [MAX_CC <cc> ARCH_WHY "<why>"] [ARCH <archs>]
#                   [GOLDENS "<suffix> <args>" ...] [SANITIZE "<args>" ...]
#                   [LAUNCH <name> | LAUNCH_WITH cp_async|tma|tma_store] [PICTURES <name>]
#                   [EXERCISE HOST|GPU|BOTH] [DEFINES <macro> ...])
#
# Registers one step: the one call per step, in the top CMakeLists.txt, and the one place where the
# step's registered facts are stated. A step folder holds:
#   config.hpp   the step's one source of truth for its code (problem layouts, CTA tiler, TiledMMA, ...)
#   kernel.cuh   the kernel, written against config.hpp
#   launch.cu    the one CUDA translation unit: the host's launch, and the kernel instantiated for it
#                (steps 01-06; from step 07 on, LAUNCH_WITH: the build writes it, below)
#   step.cpp     what only this step prints (the shared sections come from common/), its variants, its
#                bugs, its SASS classes: its tut::Step
#   pictures.cpp (where it has them) the step's own pictures
#   what_is_new.hpp (where section 4 is long) the helpers of what only this step prints
#   main.cpp     hands the step to the common harness
#   <dir>.hpp    (steps 01 and 02 only) the entry points; for the others the build generates it, below
# and, where the step has one, its host model smem_accesses.hpp (the smem instructions its threads
# issue, for the bank model in tut/banks.hpp; steps 04 and 06); and the step brings
# tests/test_<stepNN>.cpp, tests/golden/<dir>*.txt and docs/<dir>.md.
#
# It defines the library <dir>_lib (used by the executable, the tests and the benchmark) and the
# executable <dir>, and writes <build>/generated/<dir>/registered_step.hpp: `<stepNN>::kRegistration`, the
# facts below as a tut::Registration (tut/registration.hpp), which the step's tut::Step is built from.
# Where the folder has no <dir>.hpp, it also writes <build>/generated/<dir>/<dir>.hpp, the step's entry
# points for its main(), the tests and the benchmark: `enum class Bug` (config.hpp defines it), the
# launch `template <class Cfg, Bug BUG> void LAUNCH(tut::GemmArgs const&, cudaStream_t)` (launch.cu) or,
# with LAUNCH_WITH, `tut::LaunchFn launch_of(std::size_t variant)` and `launch_of(Bug)` (and, with
# LAUNCH_WITH tma_store, `stress_launch(int bug)`: --stress, tut/stress.cuh),
# `template <class Cfg> void PICTURES(tut::Options const&, std::string const& dir)` (pictures.cpp, the
# --svg pictures of its own) and `tut::Step const& step()` (step.cpp). Every step declares the same
# three or four, so they are written here once.
#   TITLE     one line for the banner and --help
#   SIZES     ANY: any M, N, K >= 1; ANY_MN: any M, N >= 1 and K a multiple of the step's k rule
#             (Step::multiple_of.k); TILE_MULTIPLES: M, N, K multiples of the CTA tile
#   WHY       why the sizes are limited (ANY_MN: required), for the message that refuses a size
#   LIFTED_BY the step that runs more sizes (TILE_MULTIPLES: required), and what it runs ("any size")
#   MIN_CC    the oldest compute capability the kernels run on (default 0: any)
#   MAX_CC    the newest one (default 0: any newer), with ARCH_WHY saying why
#   ARCH      the CUDA architectures the step's kernels are built for, when not CMAKE_CUDA_ARCHITECTURES
#             (step10: 90a-real, since wgmma and setmaxnreg exist only in sm_90a code)
#   GOLDENS   extra golden printouts besides the default one: a file suffix, then the flags
#   SANITIZE  the shapes scripts/gpu_check.sh runs compute-sanitizer on, when not its defaults for SIZES
#             (step11: shapes with more tiles than its persistent CTAs, so that each CTA takes several)
#   LAUNCH    the name of the step's launch (default: launch)
#   LAUNCH_WITH  the step has no launch.cu: the build writes <build>/generated/<dir>/launch.cu. With tiles
#             (steps 01, 02) from cmake/step_launch_tiles.cu.in: tut/launch.cuh's launch_tiles starts the
#             kernel, one CTA per tile. Otherwise from cmake/step_launch.cu.in, which launches the kernel
#             through tut/launch.cuh's launch_cp_async (cp_async), launch_tma with the threads storing C
#             (tma), or launch_tma with the TMA unit storing C where C's rows allow it (tma_store), for
#             every configuration of Variants and, into Default, every bug of Bug (config.hpp ends Bug
#             with `count`). With tma_store, Default is also built with the race amplifier (--stress,
#             tut/stress.cuh), with each bug: the kernel reads Params::kStress
#   PICTURES  the name of the function that draws the step's own pictures, where it has one
#   DEFINES   preprocessor macros the step's sources, and whatever includes its headers, are compiled with
#             (step15: CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED, for wgmma's m64n144k16, which CuTe declares
#             only where it is defined)
#   EXERCISE  the step has a hands-on exercise: its sources mark the lines that carry the idea (`//~ex{`,
#             scripts/exercise.sh). The build writes a blank copy of the folder into
#             <build>/exercises/<dir>/ and builds it as <dir>_blank (library <dir>_blank_lib), and, where
#             a learner made one (scripts/exercise.sh <step>: exercises/<dir>/), builds that as
#             <dir>_exercise. Which checks the blank copy fails: HOST, the host tests or the golden printout
#             (its GEMM is right, its layouts are not); GPU, only verification on a GPU; BOTH.
#             tests/CMakeLists.txt checks that it fails those, and that the step passes them.
# The type of A and B is the step's own (the element type its config.hpp names).
function(add_tutorial_step dir)
  cmake_parse_arguments(PARSE_ARGV 1 S "" "TITLE;SIZES;WHY;MIN_CC;MAX_CC;ARCH;ARCH_WHY;LAUNCH;LAUNCH_WITH;PICTURES;EXERCISE"
                        "LIFTED_BY;GOLDENS;SANITIZE;DEFINES")
  if(NOT S_LAUNCH)
    set(S_LAUNCH launch)
  endif()
  set(usage "add_tutorial_step(${dir}): see cmake/TutorialStep.cmake")
  set(launcher_cp_async "launch_cp_async<Cfg>")
  set(launcher_tma "launch_tma<Cfg, tut::StoreC::threads>")
  set(launcher_tma_store "launch_tma<Cfg, tut::StoreC::tma_where_aligned, STRESS>")
  set(launcher_tiles "launch_tiles")
  # --stress (tut/stress.cuh): the steps whose TMA stores race the threads that write their buffers again
  # (LAUNCH_WITH tma_store) also build Default with the race amplifier, for each bug.
  set(stress_decl "")
  set(stress_code "")
  if(S_LAUNCH_WITH STREQUAL "tma_store")
    set(stress_decl "

/// \\brief --stress: the launch of Default built with the race amplifier (tut/stress.cuh), with bug
/// \\p bug planted (0: none).
tut::LaunchFn stress_launch(int bug);")
    set(stress_code "
namespace {

template <int... B>
tut::LaunchFn stress_bug_launch(int bug, std::integer_sequence<int, B...>) {
  tut::LaunchFn const table[] = {&launch<Default, Bug(B), true>...};
  return table[bug];
}

}  // namespace

tut::LaunchFn stress_launch(int bug) {
  if (bug < 0 || bug >= int(Bug::count))
    throw std::logic_error(\"${dir} has no bug \" + std::to_string(bug));
  return stress_bug_launch(bug, std::make_integer_sequence<int, int(Bug::count)>{});
}
")
  endif()
  if(S_LAUNCH_WITH AND NOT DEFINED launcher_${S_LAUNCH_WITH})
    message(FATAL_ERROR "${usage}: LAUNCH_WITH is tiles, cp_async, tma or tma_store")
  endif()
  if(S_LAUNCH_WITH AND EXISTS ${PROJECT_SOURCE_DIR}/${dir}/launch.cu)
    message(FATAL_ERROR "${usage}: a step with LAUNCH_WITH has no launch.cu of its own (the build writes it)")
  endif()
  if(S_EXERCISE AND NOT S_EXERCISE MATCHES "^(HOST|GPU|BOTH)$")
    message(FATAL_ERROR "${usage}: EXERCISE is HOST, GPU or BOTH")
  endif()
  if(NOT S_TITLE OR NOT S_SIZES MATCHES "^(ANY|ANY_MN|TILE_MULTIPLES)$")
    message(FATAL_ERROR "${usage}: needs TITLE and SIZES ANY|ANY_MN|TILE_MULTIPLES")
  endif()
  if(S_SIZES STREQUAL "ANY_MN" AND NOT S_WHY)
    message(FATAL_ERROR "${usage}: SIZES ANY_MN needs WHY, the reason K is limited")
  endif()
  if(S_SIZES STREQUAL "TILE_MULTIPLES" AND NOT S_LIFTED_BY)
    message(FATAL_ERROR "${usage}: SIZES TILE_MULTIPLES needs LIFTED_BY, the step that runs other sizes")
  endif()
  if(NOT S_MIN_CC)
    set(S_MIN_CC 0)
  endif()
  if(NOT S_MAX_CC)
    set(S_MAX_CC 0)
  endif()
  if(NOT S_MIN_CC MATCHES "^[0-9]+$" OR NOT S_MAX_CC MATCHES "^[0-9]+$" OR (S_MAX_CC AND NOT S_ARCH_WHY))
    message(FATAL_ERROR "${usage}: MIN_CC and MAX_CC are numbers, and MAX_CC comes with ARCH_WHY")
  endif()
  string(REGEX MATCH "^step[0-9][0-9]" id "${dir}")
  if(NOT id)
    message(FATAL_ERROR "${usage}: a step folder is named stepNN_<name>")
  endif()
  set(lifted_by "")
  set(lifted_sizes "any size")
  list(LENGTH S_LIFTED_BY n)
  if(n GREATER 0)
    list(GET S_LIFTED_BY 0 lifted_by)
  endif()
  if(n GREATER 1)
    list(GET S_LIFTED_BY 1 lifted_sizes)
  endif()
  set(rule_ANY any)
  set(rule_ANY_MN any_mn)
  set(rule_TILE_MULTIPLES tile_multiples)
  set(rule ${rule_${S_SIZES}})
  # C string literals of the texts.
  set(S_LIFTED "${lifted_by}")
  set(S_LIFTED_SIZES "${lifted_sizes}")
  foreach(v TITLE WHY ARCH_WHY LIFTED LIFTED_SIZES)
    string(REPLACE "\\" "\\\\" c "${S_${v}}")
    string(REPLACE "\"" "\\\"" c "${c}")
    set(c_${v} "${c}")
  endforeach()
  get_property(earlier GLOBAL PROPERTY TUT_STEPS)
  set(previous "")
  if(earlier)
    list(GET earlier -1 previous)
  endif()
  set(registered ${PROJECT_BINARY_DIR}/generated/${dir})
  file(CONFIGURE OUTPUT ${registered}/registered_step.hpp CONTENT
"// Generated by add_tutorial_step() (cmake/TutorialStep.cmake) from the top CMakeLists.txt: edit that line.
#pragma once

#include \"tut/registration.hpp\"

namespace ${id} {

/// \\brief ${dir} as its add_tutorial_step() line registers it.
inline constexpr tut::Registration kRegistration{
    \"${dir}\",
    \"${c_TITLE}\",
    tut::SizeRule::${rule},
    \"${c_WHY}\",
    \"${c_LIFTED}\",
    \"${c_LIFTED_SIZES}\",
    ${S_MIN_CC},
    ${S_MAX_CC},
    \"${c_ARCH_WHY}\",
    \"${previous}\",
};

}  // namespace ${id}
")
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${dir}/${dir}.hpp)
    set(pictures "")
    if(S_PICTURES)
      set(pictures "
/// \\brief --svg: the step's own pictures of configuration \\p Cfg, written into \\p dir (pictures.cpp).
template <class Cfg>
void ${S_PICTURES}(tut::Options const& o, std::string const& dir);
")
    endif()
    if(S_LAUNCH_WITH)
      set(launch_decl "/// \\brief The launch of configuration \\p variant of Variants (config.hpp; 0 is Default), as written.
/// Called with the problem and a stream; a problem the step does not run throws tut::UsageError. The
/// build writes the step's launch.cu, which compiles each one (cmake/step_launch.cu.in).
tut::LaunchFn launch_of(std::size_t variant);

/// \\brief The launch of Default with \\p bug planted (Bug::none: as written).
tut::LaunchFn launch_of(Bug bug);${stress_decl}")
    else()
      set(launch_decl "/// \\brief Launch the kernel of configuration \\p Cfg (one of Variants, config.hpp), with bug \\p BUG
/// (Bug::none: the kernel as written), on \\p stream (launch.cu). A problem the step does not run
/// throws tut::UsageError.
template <class Cfg, Bug BUG>
void ${S_LAUNCH}(tut::GemmArgs const& args, cudaStream_t stream);")
    endif()
    file(CONFIGURE OUTPUT ${registered}/${dir}.hpp CONTENT
"// Generated by add_tutorial_step() (cmake/TutorialStep.cmake): ${dir}'s entry points, for its main(),
// the tests and the benchmark. docs/${dir}.md tells the story.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include \"tut/harness.hpp\"

namespace ${id} {

/// \\brief The bugs --bug plants (config.hpp).
enum class Bug : int;

${launch_decl}
${pictures}
/// \\brief The step, as the harness drives it (step.cpp).
tut::Step const& step();

}  // namespace ${id}
")
  endif()
  set(launch_cu "")  # the folder's own launch.cu
  if(S_LAUNCH_WITH)
    set(launch_cu ${registered}/launch.cu)
    set(launcher ${launcher_${S_LAUNCH_WITH}})
    string(REGEX REPLACE "<.*" "" launcher_doc "tut::${launcher}")
    if(S_LAUNCH_WITH STREQUAL "tiles")
      configure_file(${PROJECT_SOURCE_DIR}/cmake/step_launch_tiles.cu.in ${launch_cu} @ONLY)
    else()
      configure_file(${PROJECT_SOURCE_DIR}/cmake/step_launch.cu.in ${launch_cu} @ONLY)
    endif()
  endif()
  _tut_step_build(${dir} ${PROJECT_SOURCE_DIR}/${dir} ${dir} "${launch_cu}" "${S_ARCH}" ${S_DEFINES})
  if(S_EXERCISE)
    # The blank copy, written again whenever the step's sources or the script change.
    file(GLOB step_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*)
    set(blank ${PROJECT_BINARY_DIR}/exercises/${dir})
    list(TRANSFORM step_files REPLACE "^.*/" "${blank}/" OUTPUT_VARIABLE blank_files)
    add_custom_command(OUTPUT ${blank_files}
      COMMAND ${PROJECT_SOURCE_DIR}/scripts/exercise.sh ${dir} --out ${blank} --force
      DEPENDS ${step_files} ${PROJECT_SOURCE_DIR}/scripts/exercise.sh
      COMMENT "Writing the blank copy of ${dir}'s exercise")
    add_custom_target(${dir}_blank_sources DEPENDS ${blank_files})
    _tut_step_build(${dir} ${blank} ${dir}_blank "${launch_cu}" "${S_ARCH}" ${S_DEFINES})
    add_dependencies(${dir}_blank_lib ${dir}_blank_sources)
    # The learner's copy: the build finds it by itself once scripts/exercise.sh has written it.
    file(GLOB learner CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/exercises/${dir}/config.hpp)
    if(learner)
      _tut_step_build(${dir} ${PROJECT_SOURCE_DIR}/exercises/${dir} ${dir}_exercise "${launch_cu}" "${S_ARCH}" ${S_DEFINES})
    endif()
    set_property(GLOBAL PROPERTY TUT_STEP_${dir}_EXERCISE ${S_EXERCISE})
  endif()

  set_property(GLOBAL APPEND PROPERTY TUT_STEPS ${dir})
  set_property(GLOBAL PROPERTY TUT_STEP_${dir}_ID ${id})
  set_property(GLOBAL PROPERTY TUT_STEP_${dir}_SIZES ${S_SIZES})
  set_property(GLOBAL PROPERTY TUT_STEP_${dir}_GOLDENS "${S_GOLDENS}")
  set_property(GLOBAL PROPERTY TUT_STEP_${dir}_SANITIZE "${S_SANITIZE}")
  if(stress_code)
    set_property(GLOBAL PROPERTY TUT_STEP_${dir}_STRESS TRUE)
  endif()
  # The facts the pages state (scripts/gen_pages.py reads <build>/tut_steps.json), as JSON strings.
  foreach(v TITLE ARCH_WHY)
    string(REPLACE "\\" "\\\\" j "${S_${v}}")
    string(REPLACE "\"" "\\\"" j "${j}")
    set(j_${v} "${j}")
  endforeach()
  set_property(GLOBAL PROPERTY TUT_STEP_${dir}_JSON
    "{\"dir\": \"${dir}\", \"title\": \"${j_TITLE}\", \"sizes\": \"${S_SIZES}\", \"min_cc\": ${S_MIN_CC}, \"max_cc\": ${S_MAX_CC}, \"arch_why\": \"${j_ARCH_WHY}\", \"arch\": \"${S_ARCH}\"}")
endfunction()

# _tut_step_build(<dir> <folder> <name> <launch.cu> <arch> [<macro> ...]): the library <name>_lib and the
# executable bin/<name> of step <dir>, compiled from the sources in <folder>: the step's own, or a copy of
# them (an exercise's). <launch.cu> is the one the build wrote ("": the folder's own); <arch>, ARCH ("": the
# default); the macros, DEFINES, public, so that the tests and the benchmark see the types the step's
# sources see. Which host sources there are (step.cpp and, where the step draws pictures of its own,
# pictures.cpp) is the step's own folder's say: a copy may not be written yet.
function(_tut_step_build dir folder name launch_cu arch)
  set(registered ${PROJECT_BINARY_DIR}/generated/${dir})
  if(NOT launch_cu)
    set(launch_cu ${folder}/launch.cu)
  endif()
  file(GLOB own_host_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/step.cpp ${PROJECT_SOURCE_DIR}/${dir}/pictures.cpp)
  list(TRANSFORM own_host_sources REPLACE "^.*/" "${folder}/" OUTPUT_VARIABLE host_sources)
  add_library(${name}_lib STATIC ${launch_cu} ${host_sources})
  target_include_directories(${name}_lib PUBLIC ${folder} ${registered})
  target_link_libraries(${name}_lib PUBLIC tut::common tut::cute)
  if(ARGN)
    target_compile_definitions(${name}_lib PUBLIC ${ARGN})
  endif()
  if(arch)
    set_target_properties(${name}_lib PROPERTIES CUDA_ARCHITECTURES "${arch}")
  endif()
  # What nvcc and ptxas print for launch.cu is kept in <build>/ptxas/<name>.log: the SASS test reads it.
  set_target_properties(${name}_lib PROPERTIES
    CUDA_COMPILER_LAUNCHER "${PROJECT_SOURCE_DIR}/cmake/ptxas_log.sh;${PROJECT_BINARY_DIR}/ptxas/${name}.log")
  add_executable(${name} ${folder}/main.cpp)
  target_link_libraries(${name} PRIVATE ${name}_lib)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endfunction()

# tut_register_steps(): after the last add_tutorial_step(). Generates
#   - the library tut_steps: tut::all_steps(), every step in order (the benchmark and the tests read it);
#   - <build>/tut_steps.txt: "<dir> <SIZES>" per line (the scripts read it);
#   - <build>/tut_goldens.txt: "<dir> <golden file> <flags>" per line (scripts/regen_golden.sh reads it);
#   - <build>/tut_sanitize.txt: "<dir> <flags>" per line, for the steps that declare SANITIZE shapes
#     (scripts/gpu_check.sh reads it);
#   - <build>/tut_steps.json: each step's registered facts, in order (scripts/gen_pages.py reads it).
function(tut_register_steps)
  get_property(steps GLOBAL PROPERTY TUT_STEPS)
  set(includes "")
  set(entries "")
  set(manifest "")
  set(goldens "")
  set(sanitize "")
  set(json "")
  foreach(dir ${steps})
    get_property(facts GLOBAL PROPERTY TUT_STEP_${dir}_JSON)
    if(json)
      string(APPEND json ",\n")
    endif()
    string(APPEND json "  ${facts}")
    get_property(id GLOBAL PROPERTY TUT_STEP_${dir}_ID)
    get_property(sizes GLOBAL PROPERTY TUT_STEP_${dir}_SIZES)
    get_property(extra GLOBAL PROPERTY TUT_STEP_${dir}_GOLDENS)
    get_property(shapes GLOBAL PROPERTY TUT_STEP_${dir}_SANITIZE)
    foreach(shape ${shapes})
      string(APPEND sanitize "${dir} ${shape}\n")
    endforeach()
    string(APPEND includes "#include \"${dir}.hpp\"\n")
    string(APPEND entries "      &${id}::step(),\n")
    string(APPEND manifest "${dir} ${sizes}\n")
    string(APPEND goldens "${dir} ${dir} --print-only --seed 1\n")
    string(APPEND goldens "${dir} ${dir}_bugs --print-only --seed 1 --list-bugs\n")
    foreach(g ${extra})
      string(REGEX MATCH "^[A-Za-z0-9_]+" suffix "${g}")
      string(REGEX REPLACE "^[A-Za-z0-9_]+ *" "" flags "${g}")
      string(APPEND goldens "${dir} ${dir}_${suffix} --print-only --seed 1 ${flags}\n")
    endforeach()
  endforeach()
  file(WRITE ${PROJECT_BINARY_DIR}/tut_steps.txt "${manifest}")
  file(WRITE ${PROJECT_BINARY_DIR}/tut_goldens.txt "${goldens}")
  file(WRITE ${PROJECT_BINARY_DIR}/tut_sanitize.txt "${sanitize}")
  file(WRITE ${PROJECT_BINARY_DIR}/tut_steps.json "[\n${json}\n]\n")
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/generated/tut_steps.cpp CONTENT
"// Generated by tut_register_steps() (cmake/TutorialStep.cmake) from the add_tutorial_step() calls.
#include \"tut/registration.hpp\"

@includes@
namespace tut {

std::vector<Step const*> const& all_steps() {
  static std::vector<Step const*> const steps{
@entries@  };
  return steps;
}

}  // namespace tut
" @ONLY)
  add_library(tut_steps STATIC ${PROJECT_BINARY_DIR}/generated/tut_steps.cpp)
  foreach(dir ${steps})
    target_link_libraries(tut_steps PUBLIC ${dir}_lib)
  endforeach()
  set(TUT_STEP_DIRS ${steps} PARENT_SCOPE)
endfunction()
