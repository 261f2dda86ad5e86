# dem-run --restart refuses outputs that do not match the checkpoint's record of them (exit code 2,
# the message names the file): a CSV cut shorter than the recorded length, a CSV with a changed
# byte, a collection that lost its entries. An intact directory resumes (exit 0), and so does an
# empty one (a continuation into a new directory: the outputs start afresh, with a note).
set(D ${OUT}/run)
file(REMOVE_RECURSE ${OUT})
function(dem_run expected needle)
  execute_process(COMMAND ${PROGRAM} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  message(STATUS "dem-run ${ARGN}: exit code ${rc}; stderr:\n${err}")
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "expected exit code ${expected}, got ${rc}")
  endif()
  if(NOT err MATCHES "${needle}")
    message(FATAL_ERROR "stderr does not match '${needle}'")
  endif()
endfunction()
dem_run(0 "^$" --quiet --steps 320 --out ${D} ${SCENE})  # checkpoints at 150 and 300 (--quiet: nothing)
file(READ ${D}/series.csv csv)
file(COPY_FILE ${D}/series.csv ${OUT}/series.csv.good)
file(COPY_FILE ${D}/particles.pvd ${OUT}/particles.pvd.good)
set(resume --quiet --steps 450 --out ${D} --restart ${D}/restart.ckpt ${SCENE})

string(SUBSTRING "${csv}" 0 200 cut)
file(WRITE ${D}/series.csv "${cut}")
dem_run(2 "error: [^\n]*series\\.csv: the file is shorter \\(200 bytes\\)" ${resume})

string(REPLACE "," ";" changed "${csv}")
file(WRITE ${D}/series.csv "${changed}")
dem_run(2 "error: [^\n]*series\\.csv: its first [0-9]+ bytes do not match the checksum" ${resume})

file(COPY_FILE ${OUT}/series.csv.good ${D}/series.csv)
file(WRITE ${D}/particles.pvd "<?xml version=\"1.0\"?>\n")
dem_run(2 "error: [^\n]*particles\\.pvd: the file is shorter" ${resume})
# (every file is checked before any is cut back: the CSV, intact, is left as it was)
file(READ ${D}/series.csv after)
if(NOT after STREQUAL csv)
  message(FATAL_ERROR "a refused restart changed series.csv")
endif()

file(COPY_FILE ${OUT}/particles.pvd.good ${D}/particles.pvd)
dem_run(0 "^$" ${resume})

dem_run(0 "note: none of the output files[^\n]*start afresh" --quiet --steps 450 --out ${OUT}/elsewhere
        --restart ${D}/restart.ckpt ${SCENE})
if(NOT EXISTS ${OUT}/elsewhere/series.csv OR NOT EXISTS ${OUT}/elsewhere/particles.pvd)
  message(FATAL_ERROR "the continuation into a new directory wrote no outputs")
endif()
