# dem-run under an address-space limit (ulimit -v LIMIT_KB) on SCENE, which needs more: std::bad_alloc
# while loading gives exit code 1 and "out of memory" on stderr, never an abort (SIGABRT).
execute_process(COMMAND sh -c "ulimit -v ${LIMIT_KB} && exec \"$0\" --quiet --out \"$1\" \"$2\"" ${PROGRAM} ${OUT} ${SCENE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
message(STATUS "dem-run exit code ${rc}; stderr:\n${err}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit code 1, got ${rc}")
endif()
if(NOT err MATCHES "dem-run: error: out of memory while loading")
  message(FATAL_ERROR "no \"out of memory\" message on stderr")
endif()
