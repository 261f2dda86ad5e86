#pragma once
// A scene file's document: its JSON, parsed with every repeated key rejected, and the explicit
// particles (the top-level "particles" array) read element by element into compact entries while
// the text is parsed. The list never becomes a JSON document: held as one (std::map nodes, strings
// and arrays per value) it took about 1 kB per sphere, more than the scene it describes.

#include "json_errors.hpp"
#include "solver/math.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace dem::io {

// One element of "particles", read and checked (keys, types, finiteness, radius > 0, blocked
// letters); its material is still a name, resolved once the materials are known.
struct ListedParticle {
  Vec3 pos = Vec3::Zero(), vel = Vec3::Zero(), angVel = Vec3::Zero();
  double radius = 0.0;
  std::uint32_t materialName = 0;  // index into SceneDocument::materialNames
  std::uint8_t blocked = 0;        // dof bits (solver/particles.hpp)
};

struct SceneDocument {
  nlohmann::json doc;  // the whole file except the elements of a top-level "particles" array
  // True when "particles" is an array at the top level: doc holds an empty array there, and its
  // elements are `particles`, in order.
  bool particlesListed = false;
  std::deque<ListedParticle> particles;    // (grows without copying)
  std::vector<std::string> materialNames;  // the names the listed particles use, in first-use order
};

// Parses a scene file's text; a SceneError naming the file and the JSON path where it is not valid
// JSON, repeats a key in an object, or holds a particle that is not valid.
SceneDocument parseSceneDocument(const std::string& text, const std::string& fileName);

// "blocked": a string of distinct letters from x y z (translations) and X Y Z (rotations), e.g. "xyzXYZ".
std::uint8_t blockedDofs(const JsonNode& n);

}  // namespace dem::io
