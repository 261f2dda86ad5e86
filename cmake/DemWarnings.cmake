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
# Under the sanitizers, ASan's use-after-scope instrumentation (a poisoned stack slot per local
# object for each of its scopes) made GCC 12 take 326 s to compile solver/contact_loop.cpp (the
# batched kernel: hundreds of always-inlined lane values) at -O1, 70 s without it (ASan alone 213 s,
# UBSan alone 69 s, neither 14 s), and a unity file of the verification cases 47 s against 32 s;
# the sanitizer build was CI's longest phase. dem_no_use_after_scope(TARGET|SOURCE ...) turns it
# off where it costs that much: the contact loop's source and the test programs' own code. Every
# other solver and dem::io source keeps it; stack and heap overflows, leaks and UB are checked
# everywhere.
function(dem_no_use_after_scope)
  if(NOT DEM_SANITIZE)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "TARGETS;SOURCES")
  foreach(t IN LISTS arg_TARGETS)
    target_compile_options(${t} PRIVATE -fno-sanitize-address-use-after-scope)
  endforeach()
  if(arg_SOURCES)
    set_source_files_properties(${arg_SOURCES} PROPERTIES COMPILE_OPTIONS -fno-sanitize-address-use-after-scope)
  endif()
endfunction()
# DEM_ASSERT (solver/assert.hpp): the invariant checks of the solver's data.
if(DEM_ASSERTIONS)
  target_compile_definitions(dem_compile_options INTERFACE DEM_ASSERTIONS=1)
endif()

# Build-tree only: the installed libraries (cmake/DemInstall.cmake) pass none of these on.
function(dem_target_settings target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:dem_compile_options>)
endfunction()
