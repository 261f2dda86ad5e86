#pragma once
// Errors in a scene file, and typed reads that produce them.
//
// Every error names the file, the JSON path of the offending value (e.g. `particles[12].radius`,
// `$` for the document itself) and what was expected; dem-run prints it and exits with code 2.
// JsonNode is a JSON value together with its path: its typed reads (number(), positive(), vec3(),
// count(), ...) either return a valid value or throw SceneError; keysOnly() rejects unknown keys, so
// a typo is an error instead of a silently ignored setting.

#include "solver/math.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace dem::io {

class SceneError : public std::runtime_error {
 public:
  // Message: "FILE: PATH: PROBLEM" (PATH "" is the document itself, shown as "$").
  SceneError(const std::string& file, const std::string& path, const std::string& problem);
  std::string file, path, problem;
};

// A short rendering of a JSON value for messages ("got ...").
std::string describe(const nlohmann::json& v);

class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string file, std::string path)
      : v_(&value), file_(std::move(file)), path_(std::move(path)) {}

  const nlohmann::json& json() const { return *v_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  // Throws SceneError "FILE: PATH: expected EXPECTED, got VALUE".
  [[noreturn]] void fail(const std::string& expected) const;
  // Throws SceneError "FILE: PATH: PROBLEM" (for errors that are not about the value's form).
  [[noreturn]] void problem(const std::string& text) const;

  // Objects.
  void requireObject() const;
  // Requires an object whose keys all lie in `allowed`; an unknown key fails at its own path with
  // the list of allowed keys.
  void keysOnly(std::initializer_list<const char*> allowed) const;
  bool has(const char* key) const;
  JsonNode operator[](const char* key) const;  // a required key

  // Arrays.
  std::size_t arraySize() const;  // requires an array
  JsonNode at(std::size_t i) const;

  // Scalars (each checks the type, and finiteness for numbers).
  double number() const;
  double positive() const;     // finite > 0
  double nonNegative() const;  // finite >= 0
  double inRange(double lo, double hi, bool hiOpen, const std::string& what) const;  // lo <= x <(=) hi
  std::uint64_t integer(std::uint64_t lo, std::uint64_t hi) const;  // an integer in [lo, hi]
  bool boolean() const;
  std::string string() const;
  std::string oneOf(std::initializer_list<const char*> choices) const;
  Vec3 vec3() const;     // [x, y, z], finite
  Quat quat() const;     // [w, x, y, z], finite, |q| = 1 within 1e-6 (then normalised)

 private:
  std::string child(const std::string& key) const;

  const nlohmann::json* v_;
  std::string file_, path_;
};

}  // namespace dem::io
