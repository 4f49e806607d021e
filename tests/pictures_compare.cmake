# cmake -DEXE=<binary> -DOUT=<dir> -DREF=<dir> -P pictures_compare.cmake
# Regenerates a step's pictures (--svg, --html, as scripts/pictures.sh does) into OUT and requires them to
# equal the checked-in ones in REF, file for file and byte for byte; the binary must list exactly the
# files it wrote.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} --print-only --seed 1 --svg ${OUT} --html ${OUT}/index.html
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --svg ${OUT}: exit ${rc}\n${err}")
endif()
file(GLOB got RELATIVE ${OUT} ${OUT}/*)
# "pictures: wrote N files" and then one indented path per line.
string(REGEX MATCH "\npictures: wrote [0-9]+ files?\n(  [^\n]+\n)+$" listing "${out}")
string(REGEX MATCHALL "  ${OUT}/[^\n]+" listed "${listing}")
list(TRANSFORM listed REPLACE "^  ${OUT}/" "")
list(SORT listed)
if(NOT listed STREQUAL got)
  message(FATAL_ERROR "${EXE} --svg ${OUT} listed [${listed}] but wrote [${got}]")
endif()
file(GLOB want RELATIVE ${REF} ${REF}/*)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "pictures differ in their files: wrote [${got}], docs/images has [${want}]; "
                      "run scripts/pictures.sh and review the diff")
endif()
foreach(f ${got})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${f} ${REF}/${f} RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${f} differs from ${REF}/${f}: run scripts/pictures.sh and review the diff")
  endif()
endforeach()
message(STATUS "ok: ${got}")
