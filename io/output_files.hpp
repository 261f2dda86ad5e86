#pragma once
// Output files that survive an interruption (kill -9, power loss) and a restart.
//
// AppendFile: a file written by appending (the CSV series) through an in-memory buffer and POSIX
// write(2); every write, flush, fsync and close is checked, and a failure throws
// std::runtime_error "PATH: write failed: REASON" with the system's reason (strerror(errno)), so a
// full disk is never a silently short file. It tracks its length and the FNV-1a 64 checksum of all
// its bytes, which a checkpoint records (OutputRecord, io/checkpoint.hpp).
//
// Restart: a checkpoint records, for each output file, the length it had at the checkpoint's step
// and the checksum of those bytes. verifiedPrefix() reads them back; a file that is missing,
// shorter, or whose bytes do not match is refused with OutputResumeError (a CheckpointError:
// dem-run exits with code 2) naming the file; a matching file is then cut back to that length
// (rows written after the checkpoint by the interrupted run are dropped) and appended to.

#include "checkpoint.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace dem::io {

class OutputResumeError : public CheckpointError {
 public:
  using CheckpointError::CheckpointError;
};

// The first rec.offset bytes of `path`, checked against rec.checksum. `checkpoint` names the
// checkpoint file in messages. Throws OutputResumeError when the file cannot be read, is shorter,
// or its bytes do not match.
std::string verifiedPrefix(const std::string& path, const OutputRecord& rec, const std::string& checkpoint);

class AppendFile {
 public:
  enum class Mode {
    Replace,  // start an empty file
    Append,   // keep the file's bytes (hashed once) and append
    Restore,  // cut the file back to `record` (verified as by verifiedPrefix) and append
  };
  // Throws std::runtime_error (Replace, Append) or OutputResumeError (Restore) naming the path.
  AppendFile(std::string path, Mode mode, const OutputRecord* record = nullptr, const std::string& checkpoint = {});
  ~AppendFile();  // an unclosed file (the run failed): best-effort flush and close, errors ignored
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  void write(std::string_view bytes);  // buffered; writes through when the buffer is full
  void flush();                        // the buffer to the file
  void sync();                         // flush, then fsync
  void close();                        // flush and close

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }          // bytes, buffered ones included
  std::uint64_t checksum() const { return checksum_; }  // fnv1a64 of those bytes
  // The record of this file for a checkpoint (every byte counted must have been flushed).
  OutputRecord record(const std::string& name) const;

 private:
  [[noreturn]] void fail(const char* what) const;
  int fd_ = -1;
  std::string path_, buf_;
  std::uint64_t size_ = 0, checksum_ = kFnvBasis;
};

}  // namespace dem::io
