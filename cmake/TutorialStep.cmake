# add_tutorial_step(<dir>)
#
# A step folder holds:
#   config.hpp   the step's one source of truth (problem layouts, CTA tiler, TiledMMA, ...)
#   kernel.cuh   the kernel, written against config.hpp
#   launch.cu    the one CUDA translation unit: instantiates and launches the kernel
#   trace.cpp    the host-side printout of the step's partitions (g++, CuTe on the host)
#   main.cpp     a dozen lines: hand the step to the common harness
#
# It defines the library <dir>_lib (launch + trace + step description), used by the executable,
# the tests and the benchmark, and the executable <dir>.
function(add_tutorial_step dir)
  add_library(${dir}_lib STATIC
    ${PROJECT_SOURCE_DIR}/${dir}/launch.cu
    ${PROJECT_SOURCE_DIR}/${dir}/trace.cpp)
  target_include_directories(${dir}_lib PUBLIC ${PROJECT_SOURCE_DIR}/${dir})
  target_link_libraries(${dir}_lib PUBLIC tut::common tut::cute)
  add_executable(${dir} ${PROJECT_SOURCE_DIR}/${dir}/main.cpp)
  target_link_libraries(${dir} PRIVATE ${dir}_lib)
  set_target_properties(${dir} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endfunction()
