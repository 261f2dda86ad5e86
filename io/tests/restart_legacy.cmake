# A checkpoint of format version 3 (io/tests/data/lattice_v3.ckpt: no output state) still resumes:
# exit code 0, with a warning that the outputs are appended to as they are on disk.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT} --restart ${CHECKPOINT} ${SCENE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
message(STATUS "dem-run exit code ${rc}; stderr:\n${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit code 0, got ${rc}")
endif()
if(NOT err MATCHES "warning: [^\n]*lattice_v3\\.ckpt: checkpoint format version 3 records no output offsets")
  message(FATAL_ERROR "no warning about the missing output state")
endif()
file(STRINGS ${OUT}/series.csv rows)
list(LENGTH rows n)
if(NOT n EQUAL 5)  # the header and the rows of steps 50 to 80
  message(FATAL_ERROR "series.csv has ${n} lines, expected 5")
endif()
