// Included before anything else in every C++ translation unit when GCC older than 13 compiles the
// project (CMakeLists.txt). GCC 12's AVX-512 intrinsics initialise their "undefined" operands from
// themselves (`__m512d __Y = __Y;` in _mm512_undefined_pd), which -Wuninitialized and
// -Wmaybe-uninitialized then report wherever Eigen or std::experimental::simd inline them (GCC PR
// 105593, fixed in GCC 13), and -Werror turns into errors. The intrinsics header is read here with
// those two warnings off; everything read after it keeps them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
