#include "scene_document.hpp"

#include "solver/particles.hpp"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace dem::io {

namespace {

using nlohmann::json;

// Reads one element of "particles" (`n` at its path particles[i]).
ListedParticle readListedParticle(const JsonNode& n, std::vector<std::string>& names,
                                  std::unordered_map<std::string, std::uint32_t>& nameIds) {
  n.keysOnly({"pos", "radius", "material", "vel", "angVel", "blocked", "fixed"});
  ListedParticle p;
  p.pos = n["pos"].vec3();
  p.radius = n["radius"].positive();
  const std::string name = n["material"].string();
  const auto [it, added] = nameIds.try_emplace(name, static_cast<std::uint32_t>(names.size()));
  if (added) names.push_back(name);
  p.materialName = it->second;
  if (n.has("vel")) p.vel = n["vel"].vec3();
  if (n.has("angVel")) p.angVel = n["angVel"].vec3();
  if (n.has("blocked")) p.blocked = blockedDofs(n["blocked"]);
  if (n.has("fixed") && n["fixed"].boolean()) p.blocked = dof::all;
  return p;
}

// nlohmann's SAX DOM builder, with two changes:
// - a repeated key in an object is an error naming the key's JSON path (nlohmann keeps the last one
//   silently, which would hide a typo or a pasted duplicate). Linear in the size of the text: the
//   keys of each open object are kept in a set while it is parsed;
// - each element of the top-level "particles" array is built on its own, read into a
//   ListedParticle and dropped; the document keeps the array empty.
class SceneDocumentBuilder : public nlohmann::detail::json_sax_dom_parser<json> {
  using Base = nlohmann::detail::json_sax_dom_parser<json>;

 public:
  SceneDocumentBuilder(SceneDocument& out, const std::string& fileName)
      : Base(out.doc, true), out_(out), file_(fileName) {}

  bool null() {
    return scalar([](auto& b) { return b.null(); });
  }
  bool boolean(bool v) {
    return scalar([&](auto& b) { return b.boolean(v); });
  }
  bool number_integer(json::number_integer_t v) {
    return scalar([&](auto& b) { return b.number_integer(v); });
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return scalar([&](auto& b) { return b.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return scalar([&](auto& b) { return b.number_float(v, s); });
  }
  bool string(json::string_t& v) {
    return scalar([&](auto& b) { return b.string(v); });
  }
  bool binary(json::binary_t& v) {
    return scalar([&](auto& b) { return b.binary(v); });
  }
  bool start_object(std::size_t n) {
    const bool ok = opening() ? element().start_object(n) : Base::start_object(n);
    frames_.emplace_back(true);
    return ok;
  }
  bool start_array(std::size_t n) {
    bool ok = false;
    if (opening()) {
      ok = element().start_array(n);
    } else {
      ok = Base::start_array(n);
      if (frames_.size() == 1 && frames_[0].object && frames_[0].key == "particles") {
        listDepth_ = 2;  // the list's frame is the second
        out_.particlesListed = true;
      }
    }
    frames_.emplace_back(false);
    return ok;
  }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) {
      f.key = k;
      throw SceneError(file_, path(), "repeated key; each key may appear once in an object");
    }
    f.key = k;
    return listDepth_ != 0 && frames_.size() > listDepth_ ? elem_->key(k) : Base::key(k);
  }
  bool end_object() {
    frames_.pop_back();
    if (!closing()) return done(Base::end_object());
    const bool ok = elem_->end_object();
    return done(ok && finishElement());
  }
  bool end_array() {
    frames_.pop_back();
    if (!closing()) {
      if (listDepth_ != 0 && frames_.size() + 1 == listDepth_) listDepth_ = 0;  // the list's end
      return done(Base::end_array());
    }
    const bool ok = elem_->end_array();
    return done(ok && finishElement());
  }

 private:
  struct Frame {
    explicit Frame(bool isObject) : object(isObject) {}
    bool object;
    std::size_t index = 0;
    std::string key;
    std::unordered_set<std::string> keys;
  };
  SceneDocument& out_;
  std::string file_;
  std::vector<Frame> frames_;
  std::size_t listDepth_ = 0;  // frames_.size() inside the particles list (not inside an element), 0 outside it
  json elemValue_;             // the element being built
  std::optional<Base> elem_;   // its builder
  std::unordered_map<std::string, std::uint32_t> nameIds_;

  // A value or container starts inside the list: it is (part of) an element.
  bool opening() const { return listDepth_ != 0 && frames_.size() >= listDepth_; }
  // A container ended (its frame popped) inside an element.
  bool closing() const { return listDepth_ != 0 && frames_.size() >= listDepth_; }
  Base& element() {
    if (!elem_) elem_.emplace(elemValue_, true);
    return *elem_;
  }
  template <class F>
  bool scalar(F&& f) {
    if (!opening()) return done(f(static_cast<Base&>(*this)));
    const bool ok = f(element());
    return done(ok && finishElement());
  }
  // After an event inside the list: when it completed an element, read and drop it.
  bool finishElement() {
    if (frames_.size() != listDepth_) return true;
    const std::string where = "particles[" + std::to_string(frames_.back().index) + "]";
    out_.particles.push_back(readListedParticle(JsonNode(elemValue_, file_, where), out_.materialNames, nameIds_));
    elemValue_ = json();  // (the builder is balanced again: its next value is the next element)
    return true;
  }
  // A value of the enclosing array is complete: the next one has the next index.
  bool done(bool ok) {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return ok;
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.object) {
        if (!p.empty()) p.push_back('.');
        p.append(f.key);
      } else {
        p.push_back('[');
        p.append(std::to_string(f.index));
        p.push_back(']');
      }
    }
    return p;
  }
};

}  // namespace

std::uint8_t blockedDofs(const JsonNode& n) {
  const std::string s = n.string();
  const std::string letters = "xyzXYZ";  // the dof bits' order (dof::x = 1 ... dof::rz = 32)
  static_assert(dof::x == 1 && dof::y == 2 && dof::z == 4 && dof::rx == 8 && dof::ry == 16 && dof::rz == 32);
  std::uint8_t b = 0;
  for (const char c : s) {
    const std::size_t k = letters.find(c);
    const auto bit = static_cast<std::uint8_t>(k < letters.size() ? 1u << k : 0u);
    if (bit == 0 || (b & bit))
      n.fail("a string of distinct letters from \"xyzXYZ\" (x y z: translations, X Y Z: rotations)");
    b |= bit;
  }
  return b;
}

SceneDocument parseSceneDocument(const std::string& text, const std::string& fileName) {
  SceneDocument out;
  try {
    SceneDocumentBuilder builder(out, fileName);
    json::sax_parse(text, &builder);
  } catch (const json::exception& e) {
    std::string what = e.what();
    // nlohmann's messages start with "[json.exception.parse_error.101] "; keep the readable part.
    const auto close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
    throw SceneError(fileName, "", "not valid JSON: " + what);
  }
  return out;
}

}  // namespace dem::io
