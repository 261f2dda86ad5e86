# dem-run --restart refuses a scene file that does not describe the checkpoint's system (exit 2, the
# message naming the difference; no output changed). PROGRAM, SCENE (io/tests/kill_resume_box.json:
# 5 walls and 120 spheres, a checkpoint every 150 steps), CELL_SCENE (io/tests/cell_collapse.json),
# OUT. Each case edits the scene file's text and restarts from restart.ckpt of step 300 of a run to
# step 400 (the periodic one from final.ckpt of step 100); a refusal must leave series.csv, rows of
# steps after 300 included, as it was.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/run --steps 400 ${SCENE} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the first run exited with ${rc}:\n${err}")
endif()
execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/cell --steps 100 ${CELL_SCENE} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the periodic run exited with ${rc}:\n${err}")
endif()
file(READ ${SCENE} text)
file(READ ${CELL_SCENE} cell_text)
file(SHA256 ${OUT}/run/series.csv csv_before)

# refuse(NAME TEXT FROM TO REGEX CHECKPOINT): TEXT with FROM replaced by TO, restarted from
# CHECKPOINT (DIR/FILE: outputs into DIR).
function(refuse name text from to regex checkpoint)
  get_filename_component(dir ${checkpoint} DIRECTORY)
  string(FIND "${text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: '${from}' is not in the scene file")
  endif()
  string(REPLACE "${from}" "${to}" edited "${text}")
  file(WRITE ${OUT}/${name}.json "${edited}")
  execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/${dir} --restart ${OUT}/${checkpoint} ${OUT}/${name}.json
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  message(STATUS "${name}: exit ${rc}: ${err}")
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${name}: expected exit code 2, got ${rc}")
  endif()
  if(NOT err MATCHES "${regex}")
    message(FATAL_ERROR "${name}: the message does not match '${regex}'")
  endif()
endfunction()

refuse(count "${text}" "\"count\": 120" "\"count\": 121"
       "the number of bodies is 126 in the scene file, 125 in the checkpoint.*refusing to restart" run/restart.ckpt)
refuse(radius "${text}" "\"max\": 0.006 }" "\"max\": 0.0061 }" "body 5: radius is [0-9.e-]+ in the scene file" run/restart.ckpt)
refuse(material "${text}" "\"young\": 1e7" "\"young\": 2e7"
       "materials\\[0\\].young is 2e\\+07 in the scene file, 1e\\+07 in the checkpoint" run/restart.ckpt)
refuse(gravity "${text}" "-9.81" "-9.8" "engine.gravity is \\(0, 0, -9.8\\) in the scene file, \\(0, 0, -9.81\\)" run/restart.ckpt)
refuse(law "${text}" "\"damping\": 0.4" "\"damping\": 0.4, \"law\": \"hertzMindlin\""
       "engine.law is hertzMindlin in the scene file, cundall in the checkpoint" run/restart.ckpt)
refuse(csv_particles "${text}" "[5, 30]" "[5, 31]" "series.csv: its columns differ" run/restart.ckpt)
refuse(csv_name "${text}" "\"csv\": {" "\"csv\": { \"file\": \"other.csv\"," "records this output, the scene names it other.csv" run/restart.ckpt)
refuse(vtk_name "${text}" "\"vtk\": {" "\"vtk\": { \"prefix\": \"snap\"," "records this output, the scene names it snap.pvd" run/restart.ckpt)
refuse(cell_velgrad "${cell_text}" "[[-5, 0, 0]" "[[-4, 0, 0]" "cell.velGrad is \\[\\(-4, 0, 0\\)" cell/final.ckpt)

file(SHA256 ${OUT}/run/series.csv csv_after)
if(NOT csv_before STREQUAL csv_after)
  message(FATAL_ERROR "a refused restart changed series.csv")
endif()
