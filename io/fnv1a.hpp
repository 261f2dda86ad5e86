#pragma once
// FNV-1a 64-bit hash (Fowler, Noll, Vo): the checksum of checkpoints (io/checkpoint.hpp) and of the
// output files' recorded prefixes (io/output_files.hpp). The hash takes the bytes one at a time, so
// hashing a sequence in pieces, each continued from the hash of those before it, gives the hash of
// the whole: fnv1a64(b, fnv1a64(a)) == fnv1a64(a + b). A file written in chunks (io/buffered_file.hpp)
// is hashed as it passes.

#include <cstdint>
#include <string_view>

namespace dem::io {

inline constexpr std::uint64_t kFnvBasis = 1469598103934665603ull;  // the hash of no bytes
inline constexpr std::uint64_t kFnvPrime = 1099511628211ull;

// FNV-1a 64-bit hash of `bytes`, continued from `h` (the hash of the bytes before them).
inline std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = kFnvBasis) {
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return h;
}

}  // namespace dem::io
