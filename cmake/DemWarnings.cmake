# Project-wide compile settings, applied per target through dem_target_settings().
add_library(dem_compile_options INTERFACE)
target_compile_options(dem_compile_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion -Wformat=2)
if(DEM_WERROR)
  target_compile_options(dem_compile_options INTERFACE -Werror)
endif()
if(DEM_SANITIZE)
  target_compile_options(dem_compile_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(dem_compile_options INTERFACE -fsanitize=address,undefined)
endif()
# DEM_ASSERT (solver/assert.hpp): the invariant checks of the solver's data.
if(DEM_ASSERTIONS)
  target_compile_definitions(dem_compile_options INTERFACE DEM_ASSERTIONS=1)
endif()

# Build-tree only: the installed libraries (cmake/DemInstall.cmake) pass none of these on.
function(dem_target_settings target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:dem_compile_options>)
endfunction()
