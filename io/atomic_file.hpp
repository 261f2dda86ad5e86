#pragma once
// Atomic file replacement: the bytes go to PATH.tmp, which is flushed to disk and then renamed over
// PATH, so an interrupted write never destroys the previous file (rename is atomic on POSIX).

#include "buffered_file.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace dem::io {

// Throws std::runtime_error naming the path and the system error.
void writeFileAtomically(const std::string& path, std::string_view bytes);
// The same with the bytes that `write` writes into the file, as it produces them (a checkpoint
// streamed without a copy of it in memory).
void writeFileAtomically(const std::string& path, const std::function<void(BufferedFile&)>& write);
// Flushes the file `from`, written before, to disk and renames it over `to`: the last step of an
// atomic replacement, for a file written earlier without fsync (io/last_good_state.hpp).
void syncAndRename(const std::string& from, const std::string& to);

}  // namespace dem::io
