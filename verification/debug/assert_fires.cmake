# Runs PROGRAM (assert_fires.cpp) and checks that a DEM_ASSERT fired: the valid contact passed, the
# program did not exit normally, and stderr names the file and line, the condition and the message.
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "the program exited with 0: no DEM_ASSERT fired\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out MATCHES "invariants hold for a valid contact")
  message(FATAL_ERROR "DEM_ASSERT fired on a valid contact (${rc})\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "solver/contacts\\.cpp:[0-9]+: DEM_ASSERT\\(p\\.userBefore\\(a, b\\) && !p\\.isBoundary\\(a\\) && !p\\.isBoundary\\(b\\)\\) failed: sphere-sphere contact: id1 before id2 in user ids")
  message(FATAL_ERROR "stderr lacks file:line, condition and message (${rc})\nstderr: ${err}")
endif()
message(STATUS "DEM_ASSERT fired (${rc}): ${err}")
