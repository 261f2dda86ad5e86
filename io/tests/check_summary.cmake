# dem-run --check with dt from the global-stiffness estimate and a duration prints the estimated dt
# (two spheres apart: the p-wave value 0.5 r sqrt(rho / E) = 0.5 x 0.01 x sqrt(2600 / 1e7) =
# 8.06226e-05 s), the step count it implies (ceil(0.01 / dt) = 125) and the stop conditions.
execute_process(COMMAND ${PROGRAM} --check --quiet ${SCENE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dem-run --check exited with ${rc}:\n${err}")
endif()
foreach(expected IN ITEMS "dt = 8.06226e-05 s \\(0.5 x the global-stiffness estimate" "duration 0.01 s: about 125 steps"
                          "stops when unbalanced force < 0.01 or kinetic energy < 1e-09 J \\(checked every 10 steps\\)")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "dem-run --check does not print \"${expected}\":\n${out}")
  endif()
endforeach()
