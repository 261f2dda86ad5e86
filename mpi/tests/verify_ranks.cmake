# dem-verify under mpirun (tests mpi.verify_ranks_R and mpi.verify_same; docs/mpi.md): with
# -DRANKS=R every verification case runs with its scenes stepped on R ranks (verification/harness/
# ranks.hpp) and must pass; with -DCOMPARE=ON the runs of 1, 2 and 3 ranks must have written the
# same numbers, every level's every error to the last bit (numbers.csv).
# Arguments: -DPROGRAM= (dem-verify) -DMPIEXEC= -DWORK= and -DRANKS= (with -DLEVEL=--gate-only: each
# case at its gate level) or -DCOMPARE=ON
if(COMPARE)
  foreach(ranks 1 2 3)
    if(NOT EXISTS ${WORK}/ranks_${ranks}/numbers.csv)
      message(FATAL_ERROR "no numbers from the run on ${ranks} ranks (${WORK}/ranks_${ranks}/numbers.csv)")
    endif()
    file(SHA256 ${WORK}/ranks_${ranks}/numbers.csv hash_${ranks})
  endforeach()
  foreach(ranks 2 3)
    if(NOT hash_${ranks} STREQUAL hash_1)
      execute_process(COMMAND diff ${WORK}/ranks_1/numbers.csv ${WORK}/ranks_${ranks}/numbers.csv OUTPUT_VARIABLE d)
      message(FATAL_ERROR "dem-verify's numbers on ${ranks} ranks differ from those on 1:\n${d}")
    endif()
  endforeach()
  file(STRINGS ${WORK}/ranks_1/numbers.csv rows)
  list(LENGTH rows count)
  message(STATUS "${count} numbers the same on 1, 2 and 3 ranks")
  return()
endif()
file(REMOVE_RECURSE ${WORK}/ranks_${RANKS})
execute_process(COMMAND ${MPIEXEC} -n ${RANKS} --oversubscribe ${PROGRAM} ${LEVEL} --out ${WORK}/ranks_${RANKS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "[0-9]+ case\\(s\\), [0-9]+ failed[^\n]*\n.*" summary "${out}")
message(STATUS "${summary}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mpirun -n ${RANKS} dem-verify failed (${rc}):\n${out}\n${err}")
endif()
