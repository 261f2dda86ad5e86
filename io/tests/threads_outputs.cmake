# dem-run with one and with two threads writes the same bytes in every output file (series with
# the micromechanics, walls and packing columns, contacts CSV, binary VTK, checkpoint) for a scene
# above the parallel threshold (io/tests/threads_outputs.json).
foreach(t IN ITEMS 1 2)
  file(REMOVE_RECURSE ${OUT}/threads${t})
  execute_process(COMMAND ${PROGRAM} --quiet --threads ${t} --out ${OUT}/threads${t} ${SCENE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dem-run --threads ${t} exited with ${rc}:\n${err}")
  endif()
endforeach()
file(GLOB files RELATIVE ${OUT}/threads1 ${OUT}/threads1/*)
list(LENGTH files n)
if(n LESS 6)
  message(FATAL_ERROR "only ${n} output files: ${files}")
endif()
foreach(f IN LISTS files)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/threads1/${f} ${OUT}/threads2/${f} RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${f} differs between one and two threads")
  endif()
endforeach()
message(STATUS "${n} files identical with one and two threads")
