# dem-run under mpirun (test mpi.dem_run): the deposition example run to step STEPS on 1, 2 and 3
# ranks writes the same files, byte for byte (every VTK snapshot, the CSV, the checkpoints); and a
# run stopped at step STOP on 2 ranks and restarted on 3 from its last periodic checkpoint (the
# scene's restart.ckpt, before STOP) writes the same files as the run without a stop (its outputs
# cut back to the checkpoint's step and continued: io/runner.hpp). Without STOP only the first part
# (the sheared example: dt from the global stiffness, the cell flipping; the drum: a turning mesh).
# With EXPECT_STOP the scene's stop condition must end the runs before STEPS.
# Arguments: -DPROGRAM= (dem-run) -DMPIEXEC= -DSCENE= -DWORK= -DSTEPS= [-DSTOP=] [-DEXPECT_STOP=ON]
file(REMOVE_RECURSE ${WORK})
function(run_dem ranks out)
  execute_process(COMMAND ${MPIEXEC} -n ${ranks} --oversubscribe ${PROGRAM} --quiet ${ARGN} --out ${WORK}/${out} ${SCENE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -n ${ranks} dem-run ${ARGN} failed (${rc}): ${err}")
  endif()
endfunction()
function(expect_same a b)
  file(SHA256 ${a} ha)
  file(SHA256 ${b} hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${a} and ${b} differ")
  endif()
endfunction()

foreach(ranks 1 2 3)
  run_dem(${ranks} ranks_${ranks} --steps ${STEPS})
endforeach()
file(GLOB files RELATIVE ${WORK}/ranks_1 ${WORK}/ranks_1/*)
list(LENGTH files count)
if(count LESS 5)
  message(FATAL_ERROR "dem-run wrote only ${files}")
endif()
foreach(f IN LISTS files)
  foreach(ranks 2 3)
    expect_same(${WORK}/ranks_1/${f} ${WORK}/ranks_${ranks}/${f})
  endforeach()
endforeach()

if(EXPECT_STOP)  # the scene's stop condition ended the run before step STEPS
  file(STRINGS ${WORK}/ranks_1/series.csv rows)
  list(GET rows -1 last)
  string(REGEX MATCH "^[0-9]+" step "${last}")
  if(NOT step OR step EQUAL STEPS)
    message(FATAL_ERROR "the run did not stop before step ${STEPS} (last row: ${step})")
  endif()
  message(STATUS "stopped at step ${step}")
endif()
if(NOT STOP)
  message(STATUS "${count} files the same on 1, 2 and 3 ranks")
  return()
endif()
run_dem(2 restarted --steps ${STOP})
run_dem(3 restarted --steps ${STEPS} --restart ${WORK}/restarted/restart.ckpt)
foreach(f IN LISTS files)
  expect_same(${WORK}/ranks_1/${f} ${WORK}/restarted/${f})
endforeach()
file(GLOB again RELATIVE ${WORK}/restarted ${WORK}/restarted/*)
if(NOT again STREQUAL files)
  message(FATAL_ERROR "the restarted run's files (${again}) are not the others' (${files})")
endif()
message(STATUS "${count} files the same on 1, 2 and 3 ranks, and after a restart from 2 ranks on 3")
