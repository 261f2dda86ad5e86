# A smaller dt after a runaway works as the runaway message advises: PROGRAM runs SCENE
# (io/tests/runaway.json, dt = 10 x the p-wave estimate) into OUT: exit 3, last-good.ckpt. A restart
# from it with the same scene runs away again; with engine.dt = 1e-5 and engine.damping = 0.3 in the
# scene file the restart applies both (noted on stderr) and runs 500 steps, and its final state is
# byte-identical to a fresh run of the edited scene.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/run ${SCENE} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected a runaway (exit 3), got ${rc}:\n${err}")
endif()
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/run --restart ${OUT}/run/last-good.ckpt ${SCENE}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "the unchanged restart: expected a runaway again (exit 3), got ${rc}:\n${err}")
endif()
file(READ ${SCENE} text)
string(REPLACE "\"dt\": 1e-3," "\"dt\": 1e-5, \"damping\": 0.3," edited "${text}")
if(edited STREQUAL text)
  message(FATAL_ERROR "\"dt\": 1e-3 is not in ${SCENE}")
endif()
file(WRITE ${OUT}/smaller_dt.json "${edited}")
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/run --steps 500 --restart ${OUT}/run/last-good.ckpt
                        ${OUT}/smaller_dt.json RESULT_VARIABLE rc ERROR_VARIABLE err)
message(STATUS "restart with dt 1e-5: exit ${rc}: ${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the restart with dt = 1e-5 exited with ${rc}")
endif()
if(NOT err MATCHES "restart: engine.dt: 1e-05 s \\(the checkpoint's: 0.001 s\\)" OR NOT err MATCHES "engine.damping: 0.3")
  message(FATAL_ERROR "the changes of dt and damping are not noted")
endif()
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/fresh --steps 500 ${OUT}/smaller_dt.json RESULT_VARIABLE rc)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/run/final.ckpt ${OUT}/fresh/final.ckpt RESULT_VARIABLE diff)
if(NOT rc EQUAL 0 OR NOT diff EQUAL 0)
  message(FATAL_ERROR "the restart with the smaller dt differs from a fresh run with it (exit ${rc})")
endif()
