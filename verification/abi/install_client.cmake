cmake_policy(VERSION 3.25)
# package.install_client (issue 22): installs the build tree BUILD under WORK/prefix, checks what
# was installed, runs the installed dem-run on SCENE, then configures, builds and runs the example
# client CLIENT_SOURCE (examples/client) against the installed package with a fresh CMake project:
# find_package(dem CONFIG) must find it and its dependencies, and the client's compile command must
# not carry the library's -march=native (the package passes on no compile flags of the library).
# Arguments: BUILD WORK CLIENT_SOURCE SCENE GENERATOR CXX [MAKE_PROGRAM] [LAUNCHER] [PYTHON PYTHON_DIR].
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})

# The layout of the prefix.
foreach(f IN ITEMS include/dem/solver/scene.hpp include/dem/solver/particles.hpp include/dem/solver/laws/cundall.hpp
                   include/dem/io/scene_loader.hpp bin/dem-run share/dem/scene.schema.json)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
file(GLOB_RECURSE config ${prefix}/*/demConfig.cmake)
file(GLOB_RECURSE libraries ${prefix}/*dem_solver.* ${prefix}/*dem_io.*)
list(LENGTH libraries n)
if(NOT config OR n LESS 2)
  message(FATAL_ERROR "the package config or the libraries are missing: ${config} ${libraries}")
endif()
if(EXISTS ${prefix}/include/dem/solver/lanes.hpp OR EXISTS ${prefix}/include/dem/io/tests)
  message(FATAL_ERROR "internal headers or tests installed")
endif()

run("the installed dem-run" ${prefix}/bin/dem-run --quiet --steps 20 --out ${WORK}/run ${SCENE})

# The Python package (when the build has it: PYTHON and PYTHON_DIR, the package's directory below
# the prefix): imported from the prefix, it loads and runs the scene.
if(PYTHON)
  if(NOT EXISTS ${prefix}/${PYTHON_DIR}/dem/__init__.py)
    message(FATAL_ERROR "not installed: ${PYTHON_DIR}/dem/__init__.py")
  endif()
  run("the installed Python package" ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_DIR}
      ${PYTHON} -c "import dem, sys; s = dem.load_scene(sys.argv[1]); s.run(20); assert s.step_count == 20; assert dem.__file__.startswith(sys.argv[2]), dem.__file__" ${SCENE} ${prefix})
endif()

# A client project against the package.
set(configure ${CMAKE_COMMAND} -S ${CLIENT_SOURCE} -B ${WORK}/client -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
              -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configuring the client" ${configure})
message(STATUS "${out}")
if(NOT out MATCHES "from ${prefix}/")
  message(FATAL_ERROR "find_package(dem) did not find the package under ${prefix}")
endif()
file(READ ${WORK}/client/compile_commands.json commands)
message(STATUS "the client's compile command: ${commands}")
if(commands MATCHES "-march" OR NOT commands MATCHES "-fopenmp")
  message(FATAL_ERROR "the client's compile command has -march (from the package) or lacks OpenMP")
endif()
run("building the client" ${CMAKE_COMMAND} --build ${WORK}/client)
run("the client" ${WORK}/client/dem-client)
message(STATUS "dem-client:\n${out}")
if(NOT out MATCHES "rests on the floor")
  message(FATAL_ERROR "unexpected output of the client")
endif()
