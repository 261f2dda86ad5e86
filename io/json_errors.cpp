#include "json_errors.hpp"

#include <cmath>
#include <sstream>

namespace dem::io {

SceneError::SceneError(const std::string& f, const std::string& p, const std::string& what)
    : std::runtime_error(f + ": " + (p.empty() ? std::string("$") : p) + ": " + what), file(f), path(p), problem(what) {}

std::string describe(const nlohmann::json& v) {
  // Containers are described by their size (dumping a deeply nested value would recurse).
  if (v.is_object()) return "an object with " + std::to_string(v.size()) + " keys";
  if (v.is_array()) return "an array of " + std::to_string(v.size()) + " elements";
  if (v.is_null()) return "null";
  std::string text;
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    text = nlohmann::json(s.size() > 60 ? s.substr(0, 57) + "..." : s)
               .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    return "the string " + text;
  }
  text = v.dump();
  return v.is_boolean() ? "the boolean " + text : text;
}

void JsonNode::fail(const std::string& expected) const {
  throw SceneError(file_, path_, "expected " + expected + ", got " + describe(*v_));
}

void JsonNode::problem(const std::string& text) const { throw SceneError(file_, path_, text); }

void JsonNode::requireObject() const {
  if (!v_->is_object()) fail("an object");
}

void JsonNode::keysOnly(std::initializer_list<const char*> allowed) const {
  requireObject();
  for (const auto& item : v_->items()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || item.key() == a;
    if (ok) continue;
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    throw SceneError(file_, child(item.key()), "unknown key; expected one of: " + list);
  }
}

std::string JsonNode::child(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

bool JsonNode::has(const char* key) const { return v_->is_object() && v_->contains(key); }

JsonNode JsonNode::operator[](const char* key) const {
  requireObject();
  const auto it = v_->find(key);
  if (it == v_->end()) throw SceneError(file_, path_, std::string("missing required key '") + key + "'");
  return JsonNode(*it, file_, child(key));
}

std::size_t JsonNode::arraySize() const {
  if (!v_->is_array()) fail("an array");
  return v_->size();
}

JsonNode JsonNode::at(std::size_t i) const {
  arraySize();
  return JsonNode((*v_)[i], file_, path_ + "[" + std::to_string(i) + "]");
}

double JsonNode::number() const {
  if (!v_->is_number()) fail("a number");
  const double x = v_->get<double>();
  if (!std::isfinite(x)) fail("a finite number");
  return x;
}

double JsonNode::positive() const {
  const double x = number();
  if (!(x > 0.0)) fail("a number > 0");
  return x;
}

double JsonNode::nonNegative() const {
  const double x = number();
  if (!(x >= 0.0)) fail("a number >= 0");
  return x;
}

double JsonNode::inRange(double lo, double hi, bool hiOpen, const std::string& what) const {
  const double x = number();
  if (!(x >= lo && (hiOpen ? x < hi : x <= hi))) fail(what);
  return x;
}

std::uint64_t JsonNode::integer(std::uint64_t lo, std::uint64_t hi) const {
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (v_->is_number_unsigned()) {
    const auto x = v_->get<std::uint64_t>();
    if (x < lo || x > hi) fail(range);
    return x;
  }
  if (v_->is_number_integer()) {
    const auto x = v_->get<std::int64_t>();
    if (x < 0 || static_cast<std::uint64_t>(x) < lo || static_cast<std::uint64_t>(x) > hi) fail(range);
    return static_cast<std::uint64_t>(x);
  }
  fail(range);
}

bool JsonNode::boolean() const {
  if (!v_->is_boolean()) fail("true or false");
  return v_->get<bool>();
}

std::string JsonNode::string() const {
  if (!v_->is_string()) fail("a string");
  return v_->get<std::string>();
}

std::string JsonNode::oneOf(std::initializer_list<const char*> choices) const {
  std::string list;
  for (const char* c : choices) list += std::string(list.empty() ? "" : ", ") + "\"" + c + "\"";
  if (!v_->is_string()) fail("one of " + list);
  const std::string s = v_->get<std::string>();
  for (const char* c : choices)
    if (s == c) return s;
  fail("one of " + list);
}

Vec3 JsonNode::vec3() const {
  if (!v_->is_array() || v_->size() != 3) fail("an array of 3 numbers [x, y, z]");
  Vec3 r;
  for (std::size_t k = 0; k < 3; ++k) r[static_cast<Eigen::Index>(k)] = at(k).number();
  return r;
}

Quat JsonNode::quat() const {
  if (!v_->is_array() || v_->size() != 4) fail("an array of 4 numbers [w, x, y, z]");
  const Quat q(at(0).number(), at(1).number(), at(2).number(), at(3).number());
  if (!(std::abs(q.norm() - 1.0) <= 1e-6)) fail("a unit quaternion [w, x, y, z] (|q| = 1 within 1e-6)");
  return q.normalized();
}

}  // namespace dem::io
