# Finds every dependency up front and stops with the Debian package to install when one is missing.
# scripts/install-deps.sh installs all of them.

function(dem_missing what package)
  message(FATAL_ERROR
    "dem: ${what} not found. Install the Debian package '${package}' "
    "(or run scripts/install-deps.sh, which installs everything the project needs).")
endfunction()

find_package(Eigen3 3.3 QUIET NO_MODULE)
if(NOT TARGET Eigen3::Eigen)
  dem_missing("Eigen 3 (headers)" "libeigen3-dev")
endif()

find_package(OpenMP QUIET COMPONENTS CXX)
if(NOT OpenMP_CXX_FOUND)
  message(FATAL_ERROR "dem: OpenMP not found; the compiler must support -fopenmp (Debian: g++ brings libgomp).")
endif()

if(DEM_BUILD_TESTS OR DEM_BUILD_REPORTS)
  find_package(Boost 1.74 QUIET)
  if(NOT Boost_FOUND)
    dem_missing("Boost headers (Odeint, Math)" "libboost-dev")
  endif()
  find_path(DEM_ODEINT_HEADER boost/numeric/odeint.hpp HINTS ${Boost_INCLUDE_DIRS})
  if(NOT DEM_ODEINT_HEADER)
    dem_missing("Boost.Odeint (boost/numeric/odeint.hpp)" "libboost-dev")
  endif()
endif()

if(DEM_BUILD_TESTS)
  find_package(Boost 1.74 QUIET COMPONENTS unit_test_framework)
  if(NOT TARGET Boost::unit_test_framework)
    dem_missing("Boost.Test (unit_test_framework library)" "libboost-test-dev")
  endif()
endif()

if(DEM_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  if(NOT TARGET benchmark::benchmark)
    dem_missing("Google Benchmark" "libbenchmark-dev")
  endif()
endif()

if(DEM_BUILD_REPORTS)
  find_package(Boost 1.74 QUIET COMPONENTS iostreams)
  if(NOT TARGET Boost::iostreams)
    dem_missing("Boost.Iostreams (needed by gnuplot-iostream)" "libboost-iostreams-dev")
  endif()
  find_path(DEM_GNUPLOT_IOSTREAM_HEADER gnuplot-iostream.h)
  if(NOT DEM_GNUPLOT_IOSTREAM_HEADER)
    dem_missing("gnuplot-iostream (gnuplot-iostream.h)" "libgnuplot-iostream-dev")
  endif()
  find_program(DEM_GNUPLOT gnuplot)
  if(NOT DEM_GNUPLOT)
    dem_missing("the gnuplot program" "gnuplot-nox")
  endif()
endif()
