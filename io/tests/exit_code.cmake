# Runs PROGRAM --quiet --out OUT SCENE and checks that it exits with EXPECTED and, unless 0, says why
# on stderr.
# With MATCH, stderr must match that regular expression. With RESTART_TO, the message must name the
# last good state ("the last good state (step N...) is in FILE"), and a restart from FILE to step
# RESTART_TO (< the failing step) must succeed. A CSV series written (OUT/series.csv) must hold no
# inf or nan after its step-0 row.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT} ${SCENE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
message(STATUS "dem-run exit code ${rc}; stderr:\n${err}")
if(NOT rc EQUAL EXPECTED)
  message(FATAL_ERROR "expected exit code ${EXPECTED}, got ${rc}")
endif()
if(NOT EXPECTED EQUAL 0 AND NOT err MATCHES "dem-run: (error|runaway)")
  message(FATAL_ERROR "no error report on stderr")
endif()
if(DEFINED MATCH AND NOT err MATCHES "${MATCH}")
  message(FATAL_ERROR "stderr does not match ${MATCH}")
endif()
if(EXISTS ${OUT}/series.csv)
  file(READ ${OUT}/series.csv csv)
  string(TOLOWER "${csv}" csv)
  # (the row of step 0 has nan in the columns that refer to the step before it: io/csv_output.hpp)
  string(REGEX REPLACE "\n0,[^\n]*" "" csv "${csv}")
  if(csv MATCHES "inf|nan")
    message(FATAL_ERROR "${OUT}/series.csv holds a non-finite number")
  endif()
endif()
if(DEFINED RESTART_TO)
  if(NOT err MATCHES "the last good state \\(step [0-9]+[^)]*\\) is in ([^\n]+)")
    message(FATAL_ERROR "the message does not name the last good state's file")
  endif()
  set(saved ${CMAKE_MATCH_1})
  execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT} --restart ${saved} --steps ${RESTART_TO} ${SCENE}
                  RESULT_VARIABLE rc2 ERROR_VARIABLE err2)
  if(NOT rc2 EQUAL 0)
    message(FATAL_ERROR "the restart from ${saved} to step ${RESTART_TO} exited with ${rc2}:\n${err2}")
  endif()
  message(STATUS "restart from ${saved}: ${err2}")
endif()
