# Checks that the CTest tests unit.SUITE (verification/CMakeLists.txt, read from the sources) cover
# exactly the top-level suites of dem-unit-tests --list_content.
execute_process(COMMAND ${PROGRAM} --list_content OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --list_content failed (${rc})")
endif()
string(REGEX MATCHALL "(^|\n)[A-Za-z0-9_]+" names "${out}${err}")
set(listed "")
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  list(APPEND listed ${n})
endforeach()
list(SORT listed)
set(expected ${EXPECTED})
list(SORT expected)
if(NOT "${listed}" STREQUAL "${expected}")
  message(FATAL_ERROR "the CTest unit suites (${expected}) differ from the top-level suites of "
                      "dem-unit-tests (${listed}); re-run cmake, and keep each suite's "
                      "BOOST_AUTO_TEST_SUITE(name) at the start of its line")
endif()
message(STATUS "${PROGRAM}: ${listed}")
