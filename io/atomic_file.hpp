#pragma once
// Atomic file replacement: the bytes go to PATH.tmp, which is flushed to disk and then renamed over
// PATH, so an interrupted write never destroys the previous file (rename is atomic on POSIX).

#include <string>
#include <string_view>

namespace dem::io {

// Throws std::runtime_error naming the path and the system error.
void writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace dem::io
