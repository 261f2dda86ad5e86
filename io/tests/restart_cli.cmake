# dem-run restart in a fresh process: SCENE run straight to step N, and run to N/2, then resumed
# with --restart from the final state to N, must write byte-identical final checkpoints.
set(A ${OUT}/straight)
set(B ${OUT}/resumed)
file(REMOVE_RECURSE ${OUT})
math(EXPR HALF "${STEPS} / 2")
foreach(cmd
    "--quiet;--steps;${STEPS};--out;${A};${SCENE}"
    "--quiet;--steps;${HALF};--out;${B};${SCENE}"
    "--quiet;--steps;${STEPS};--out;${B};--restart;${B}/final.ckpt;${SCENE}")
  execute_process(COMMAND ${PROGRAM} ${cmd} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dem-run ${cmd} failed (${rc}):\n${err}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${A}/final.ckpt ${B}/final.ckpt RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "the resumed run's final state differs from the straight run's")
endif()
# The resumed run's collection lists the snapshots of both parts, as the straight run's does.
file(READ ${A}/particles.pvd pvdA)
file(READ ${B}/particles.pvd pvdB)
if(NOT pvdA STREQUAL pvdB)
  message(FATAL_ERROR "the resumed run's particles.pvd differs from the straight run's:\n${pvdB}")
endif()
# Periodic scenes: so does the cell's collection.
if(EXISTS ${A}/particles_cell.pvd)
  file(READ ${A}/particles_cell.pvd pvdA)
  file(READ ${B}/particles_cell.pvd pvdB)
  if(NOT pvdA STREQUAL pvdB)
    message(FATAL_ERROR "the resumed run's particles_cell.pvd differs from the straight run's:\n${pvdB}")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${A}/series.csv ${B}/series.csv RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "the resumed run's series.csv differs from the straight run's")
endif()
message(STATUS "resumed run is byte-identical to the straight run (${STEPS} steps)")
