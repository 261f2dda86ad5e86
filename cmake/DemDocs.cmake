# API reference: the target `docs` runs Doxygen (Debian package doxygen) on the headers of solver/
# and io/ with docs/Doxyfile.in, writing build/<preset>/docs/html/index.html. Defined only when
# Doxygen is installed; nothing else needs it, and the default build does not run it.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(DEM_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${DEM_DOCS_OUTPUT}/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND Doxygen::doxygen ${DEM_DOCS_OUTPUT}/Doxyfile
    COMMAND ${CMAKE_COMMAND} -E echo "API reference: ${DEM_DOCS_OUTPUT}/html/index.html"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Doxygen: the API reference of solver/ and io/"
    VERBATIM)
endif()
