# Build time (CI under 20 minutes on 2 cores, issue 25): a compiler cache and unity builds of the
# test programs. Neither changes what is compiled into the solver, nor which warnings are errors.

# --- compiler cache ---------------------------------------------------------------------------------
# ccache (Debian package ccache) as the compiler launcher when it is installed. A cold cache builds
# exactly as without it; a warm one (unchanged sources and headers) only links.
#  - Presets do not share entries wrongly: the flags (build type, sanitizers, warnings, defines) are
#    part of each entry's hash.
#  - -march=native is hashed as text by ccache 4.7 (ccache issue 824), so the compiler's expansion
#    of it for this machine (-Q --help=target) is written to the build tree and hashed with every
#    compilation (CCACHE_EXTRAFILES): another CPU gives other entries.
#  - CCACHE_BASEDIR = the source tree: paths below it are rewritten relative to the build
#    directory, so a fresh clone at another path hits the same entries; CCACHE_NOHASHDIR: the -g
#    builds' entries (the asan preset's -g1) too, whose working directory ccache would otherwise
#    hash (its default hash_dir). The price: an object taken from the cache names the compilation
#    directory of the clone that compiled it in its debug information (the sanitizers' stack
#    traces print that clone's path; file names and lines are this source's).
option(DEM_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(DEM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(DEM_CCACHE_PROGRAM ccache)
  if(DEM_CCACHE_PROGRAM)
    set(dem_ccache_env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1)
    if(DEM_NATIVE)
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -march=native -Q --help=target
                      OUTPUT_VARIABLE dem_native_target ERROR_QUIET RESULT_VARIABLE dem_native_rc)
      if(NOT dem_native_rc EQUAL 0)
        # Cannot tell what -march=native means here: hash the CPU description instead.
        file(READ /proc/cpuinfo dem_native_target)
      endif()
      set(dem_native_file ${PROJECT_BINARY_DIR}/dem-native-target.txt)
      file(WRITE ${dem_native_file} "${dem_native_target}")
      list(APPEND dem_ccache_env "CCACHE_EXTRAFILES=${dem_native_file}")
    endif()
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env ${dem_ccache_env} ${DEM_CCACHE_PROGRAM})
    message(STATUS "dem: compiling through ccache (${DEM_CCACHE_PROGRAM}; -DDEM_CCACHE=OFF to build without)")
  endif()
endif()

# --- unity builds -------------------------------------------------------------------------------------
# The test programs' sources are many short files that each read Eigen, the solver's headers,
# Boost.Test and (the verification cases) Boost.Odeint: most of their compile time went to reading
# the same headers again. dem_unity(TARGET BATCH) compiles them BATCH files per translation unit,
# in the order the target lists them. The solver, dem::io and the programs that are measured are
# not merged, so their code generation is the same as in a normal build. A file that defines
# BOOST_TEST_MODULE stays alone (it must be the first to read Boost.Test in its translation unit).
# Requirement for the merged files: no two define the same name at namespace scope, anonymous
# namespaces included (a clash is a "redefinition" or "ambiguous" error naming both), and a
# using-directive reaches the files merged after it. Files named after SKIP, and files with a line
# matching a regex after SKIP_IF_MATCHES, are compiled alone:
#   dem_unity(TARGET BATCH [SKIP file...] [SKIP_IF_MATCHES regex...])
# The merged translation units are written here, not by CMake's UNITY_BUILD: CMake 3.25 includes
# each file by its absolute path, so a clone at another path (every CI run) had other sources and
# missed the compiler cache for all of them. These include each file by its path relative to the
# merged file, the same in every clone (the presets' build trees are below the source tree); a
# merged file is rewritten only when its list changes, and the compiler's dependency output names
# the files it includes, so editing one recompiles its batch.
option(DEM_UNITY_BUILD "Unity builds of the test programs (fewer, larger translation units)" ON)
function(dem_unity target batch)
  if(NOT DEM_UNITY_BUILD)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SKIP;SKIP_IF_MATCHES")
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  get_target_property(binary_dir ${target} BINARY_DIR)
  set(unity_dir ${binary_dir}/unity/${target})
  set(merged "")
  foreach(s IN LISTS sources)
    get_filename_component(name ${s} NAME)
    get_filename_component(s ${s} ABSOLUTE BASE_DIR ${dir})
    if(NOT s MATCHES "\\.cpp$")
      continue()
    endif()
    set(alone OFF)
    if(name STREQUAL "main.cpp" OR name IN_LIST arg_SKIP)
      set(alone ON)
    endif()
    foreach(regex IN LISTS arg_SKIP_IF_MATCHES)
      file(STRINGS ${s} hits REGEX "${regex}")
      if(hits)
        set(alone ON)
      endif()
    endforeach()
    if(NOT alone)
      list(APPEND merged ${s})
    endif()
  endforeach()
  # BATCH files per merged translation unit, in the target's order
  set(units "")
  set(content "")
  set(count 0)
  list(LENGTH merged total)
  set(done 0)
  foreach(s IN LISTS merged)
    file(RELATIVE_PATH relative ${unity_dir} ${s})
    string(APPEND content "#include \"${relative}\"\n")
    math(EXPR count "${count} + 1")
    math(EXPR done "${done} + 1")
    if(count EQUAL batch OR done EQUAL total)
      list(LENGTH units index)
      set(unit ${unity_dir}/unity_${index}.cpp)
      file(CONFIGURE OUTPUT ${unit} CONTENT "// generated by dem_unity (cmake/DemBuildSpeed.cmake)\n${content}" @ONLY)
      list(APPEND units ${unit})
      set(content "")
      set(count 0)
    endif()
  endforeach()
  if(merged)
    set_source_files_properties(${merged} TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY ON)
    target_sources(${target} PRIVATE ${units})
  endif()
endfunction()
