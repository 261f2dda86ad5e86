# dem-run with engine.spatialOrder true and false (both with engine.userIdSums) writes the same bytes in every output file (series
# with particle, micromechanics, walls and packing columns, contacts CSV, VTK of spheres, contacts
# and walls): the outputs name and order the bodies by their ids in the scene file, whatever their
# slots in storage. The scene: a floor and a lattice of 24 x 24 x 20 spheres listed in a shuffled
# order (file index f holds lattice site f * 1169 mod 11520, so that lattice neighbours lie between
# 4096 and 7424 places apart in the file: every contact joins bodies far apart in storage and the
# spatial order renumbers them). The final checkpoints hold the bodies in their slots, so they
# differ: that shows the spatial order moved the bodies.
set(nx 24)
set(ny 24)
set(nz 20)
math(EXPR n "${nx} * ${ny} * ${nz}")
math(EXPR last "${n} - 1")
# (written in parts of 256 spheres: appending each to one string copied the whole list every time,
# 37 s of the test's 48)
file(MAKE_DIRECTORY ${OUT})
file(WRITE ${OUT}/spheres.part "")
set(part "")
foreach(f RANGE ${last})
  math(EXPR site "(${f} * 1169) % ${n}")
  math(EXPR i "${site} % ${nx}")
  math(EXPR j "(${site} / ${nx}) % ${ny}")
  math(EXPR k "${site} / (${nx} * ${ny})")
  # centres 0.01 m apart (radius 0.005 m: touching), the lowest layer on the floor
  math(EXPR z "${k} * 10 + 5")
  if(f GREATER 0)
    string(APPEND part ",\n")
  endif()
  string(APPEND part "    {\"pos\": [${i}e-2, ${j}e-2, ${z}e-3], \"radius\": 0.005, \"material\": \"m\"}")
  math(EXPR filled "(${f} + 1) % 256")
  if(filled EQUAL 0 OR f EQUAL last)
    file(APPEND ${OUT}/spheres.part "${part}")
    set(part "")
  endif()
endforeach()
file(READ ${OUT}/spheres.part spheres)
foreach(order IN ITEMS true false)
  file(WRITE ${OUT}/${order}.json "{
  \"materials\": [{\"name\": \"m\", \"density\": 2600, \"young\": 1e7, \"friction\": 0.4}],
  \"walls\": [{\"point\": [0, 0, 0], \"normal\": [0, 0, 1], \"material\": \"m\"}],
  \"particles\": [
${spheres}
  ],
  \"engine\": {\"dt\": 2e-5, \"steps\": 300, \"gravity\": [0, 0, -9.81], \"damping\": 0.2, \"spatialOrder\": ${order}, \"userIdSums\": true},
  \"outputs\": {
    \"progress\": false,
    \"csv\": {\"interval\": 100, \"particles\": [1, 5000, ${n}], \"micromechanics\": true, \"walls\": true,
            \"packing\": {\"min\": [0, 0, 0], \"max\": [0.2, 0.2, 0.2]}},
    \"contacts\": {\"interval\": 150},
    \"vtk\": {\"interval\": 300, \"contacts\": true}
  }
}
")
  file(REMOVE_RECURSE ${OUT}/${order})
  execute_process(COMMAND ${PROGRAM} --quiet --out ${OUT}/${order} ${OUT}/${order}.json
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dem-run with spatialOrder ${order} exited with ${rc}:\n${err}")
  endif()
endforeach()
file(GLOB files RELATIVE ${OUT}/true ${OUT}/true/*)
set(compared 0)
set(checkpoints 0)
foreach(f IN LISTS files)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/true/${f} ${OUT}/false/${f} RESULT_VARIABLE differ)
  if(f MATCHES "\\.ckpt$")
    math(EXPR checkpoints "${checkpoints} + 1")
    if(NOT differ)
      message(FATAL_ERROR "${f} is the same with the spatial order on and off: the bodies were not renumbered")
    endif()
  elseif(differ)
    message(FATAL_ERROR "${f} differs between spatialOrder true and false")
  else()
    math(EXPR compared "${compared} + 1")
  endif()
endforeach()
if(compared LESS 6 OR checkpoints LESS 1)
  message(FATAL_ERROR "only ${compared} output files and ${checkpoints} checkpoints: ${files}")
endif()
message(STATUS "${compared} output files identical with the spatial order on and off")
