# Runs PROGRAM --quiet --out OUT SCENE and checks that it exits with EXPECTED and says why on stderr.
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT} ${SCENE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
message(STATUS "dem-run exit code ${rc}; stderr:\n${err}")
if(NOT rc EQUAL EXPECTED)
  message(FATAL_ERROR "expected exit code ${EXPECTED}, got ${rc}")
endif()
if(NOT err MATCHES "dem-run: (error|runaway)")
  message(FATAL_ERROR "no error report on stderr")
endif()
