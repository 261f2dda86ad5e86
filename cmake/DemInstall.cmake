# Install rules and the CMake package (issue 22): `cmake --install` puts under the prefix
#   include/dem/{solver,io}/*.hpp   the public headers (include them as "solver/scene.hpp", as in the tree)
#   lib/libdem_solver.a, libdem_io.a
#   bin/dem-run
#   share/dem/scene.schema.json     the scene-file schema
#   lib/cmake/dem/                  find_package(dem CONFIG): imported targets dem::solver, dem::io
#                                   (and the program dem::run)
# The package carries the public dependencies (Eigen, OpenMP, nlohmann-json; found again by
# demConfig.cmake) and nothing of the library's own compile flags: -march=native, -ffp-contract=off
# and the warnings are directory or build-tree options, not usage requirements. A program that uses
# the library needs no particular flags, since the public types have one layout for any flags
# (solver/math.hpp; test abi.layout).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DEM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dem CACHE STRING "Where the CMake package of dem is installed (below the prefix)")
mark_as_advanced(DEM_INSTALL_CMAKEDIR)
set(dem_include_dir ${CMAKE_INSTALL_INCLUDEDIR}/dem)
set(dem_data_dir ${CMAKE_INSTALL_DATADIR}/dem)

set_target_properties(dem_solver PROPERTIES EXPORT_NAME solver)
set(dem_installed dem_solver)
# The contact kernel and its lane types are the contact loop's internals (their code depends on the
# target's vector width): not installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/solver/ DESTINATION ${dem_include_dir}/solver
        FILES_MATCHING PATTERN "*.hpp" PATTERN "lanes.hpp" EXCLUDE PATTERN "contact_kernel.hpp" EXCLUDE)
if(DEM_BUILD_IO)
  set_target_properties(dem_io PROPERTIES EXPORT_NAME io)
  set_target_properties(dem-run PROPERTIES EXPORT_NAME run)
  list(APPEND dem_installed dem_io)
  install(TARGETS dem-run EXPORT demTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  if(TARGET dem-run-mpi)  # (dem-run under mpirun runs it from its own directory)
    install(TARGETS dem-run-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/io/ DESTINATION ${dem_include_dir}/io
          FILES_MATCHING PATTERN "*.hpp" PATTERN "tests" EXCLUDE)
  install(FILES ${PROJECT_SOURCE_DIR}/io/scene.schema.json DESTINATION ${dem_data_dir})
endif()
install(TARGETS ${dem_installed} EXPORT demTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${dem_include_dir})
install(EXPORT demTargets NAMESPACE dem:: DESTINATION ${DEM_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/demConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/demConfig.cmake
  INSTALL_DESTINATION ${DEM_INSTALL_CMAKEDIR}
  PATH_VARS dem_data_dir)
# 0.x: a minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/demConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/demConfig.cmake ${PROJECT_BINARY_DIR}/package/demConfigVersion.cmake
        DESTINATION ${DEM_INSTALL_CMAKEDIR})
