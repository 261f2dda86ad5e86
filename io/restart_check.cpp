#include "restart_check.hpp"

#include <charconv>
#include <sstream>

namespace dem::io {

namespace {

// The shortest text that reads back to v.
std::string str(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string str(std::size_t v) { return std::to_string(v); }
std::string str(std::uint32_t v) { return std::to_string(v); }
std::string str(std::uint8_t v) { return std::to_string(v); }
std::string str(std::int64_t v) { return std::to_string(v); }
std::string str(bool v) { return v ? "true" : "false"; }
std::string str(const std::string& v) { return v; }
std::string str(const Vec3& v) {
  std::ostringstream s;
  s << "(" << str(v.x()) << ", " << str(v.y()) << ", " << str(v.z()) << ")";
  return s.str();
}

std::string str(const Mat3& m) {
  std::ostringstream s;
  s << "[" << str(Vec3(m.row(0).transpose())) << ", " << str(Vec3(m.row(1).transpose())) << ", "
    << str(Vec3(m.row(2).transpose())) << "]";
  return s.str();
}

// A difference: "WHAT is A in the scene file, B in the checkpoint".
struct Differ {
  std::string what;
  template <class T>
  bool operator()(const std::string& field, const T& a, const T& b) {
    if (a == b) return false;
    what = field + " is " + str(a) + " in the scene file, " + str(b) + " in the checkpoint";
    return true;
  }
};

// Rule: same bodies, in the same order (user ids: the bodies matched by user id, whatever their
// slots in storage), with the same shape, radius, mass, material, blocked axes and clump.
bool bodiesDiffer(const Particles& a, const Particles& b, Differ& d) {
  if (d("the number of bodies", a.size(), b.size())) return true;
  for (std::size_t u = 0; u < a.size(); ++u) {
    const std::size_t i = a.slotOf[u], j = b.slotOf[u];
    const std::string p = "body " + std::to_string(u) + ": ";
    // (a clump body never moves: its slot is its user id)
    if (d(p + "wall", a.isWall(i), b.isWall(j)) || d(p + "radius", a.radius[i], b.radius[j]) ||
        d(p + "mass", a.mass[i], b.mass[j]) || d(p + "material", a.material[i], b.material[j]) ||
        d(p + "blocked axes", a.blocked[i], b.blocked[j]) || d(p + "clump", a.clump[i], b.clump[j]))
      return true;
  }
  return false;
}

// Rule: the same materials, every property.
bool materialsDiffer(const std::vector<Material>& a, const std::vector<Material>& b, Differ& d) {
  if (d("the number of materials", a.size(), b.size())) return true;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::string m = "materials[" + std::to_string(k) + "].";
    if (d(m + "density", a[k].density, b[k].density) || d(m + "young", a[k].young, b[k].young) ||
        d(m + "ksRatio", a[k].ksRatio, b[k].ksRatio) ||
        d(m + "frictionAngle", a[k].frictionAngle, b[k].frictionAngle) ||
        d(m + "poisson", a[k].poisson, b[k].poisson) || d(m + "restitution", a[k].restitution, b[k].restitution))
      return true;
  }
  return false;
}

// Rule: a cell in both or neither, with the same velocity gradient, homoDeform and flip (H evolves: not compared).
bool cellsDiffer(const std::optional<Cell>& a, const std::optional<Cell>& b, Differ& d) {
  if (d("a periodic cell (present)", a.has_value(), b.has_value())) return true;
  if (!a) return false;
  return d("cell.velGrad", a->nextVelGrad(), b->nextVelGrad()) || d("cell.homoDeform", a->homoDeform, b->homoDeform) ||
         d("cell.flip", a->flipFlippable, b->flipFlippable);
}

}  // namespace

void checkRestartScene(const Scene& fromFile, const Scene& checkpoint, const std::string& scenePath,
                       const std::string& checkpointPath) {
  Differ d;
  const bool differ = bodiesDiffer(fromFile.particles, checkpoint.particles, d) ||
                      materialsDiffer(fromFile.materials, checkpoint.materials, d) ||
                      d("engine.law", lawName(fromFile.law), lawName(checkpoint.law)) ||
                      d("engine.gravity", fromFile.gravity, checkpoint.gravity) ||
                      cellsDiffer(fromFile.cell, checkpoint.cell, d);
  if (differ)
    throw RestartMismatch(scenePath + ": does not describe the system of " + checkpointPath + ": " + d.what +
                          "; refusing to restart (only dt, damping, dampGravity, the number of steps and the output intervals may "
                          "change on a restart)");
}

std::vector<std::string> applyRestartChanges(const Scene& fromFile, Scene& checkpoint) {
  std::vector<std::string> notes;
  checkpoint.setSpatialOrder(fromFile.spatialOrder());  // (settings of the run, not in the checkpoint)
  checkpoint.setUserIdSums(fromFile.userIdSums());
  if (fromFile.dtSafety() > 0.0) {
    if (fromFile.dtSafety() != checkpoint.dtSafety() || fromFile.dtInterval() != checkpoint.dtInterval()) {
      checkpoint.setDtFromStiffness(fromFile.dtSafety(), fromFile.dtInterval());
      notes.push_back("engine.dt: fromStiffness with safety " + str(fromFile.dtSafety()) + ", interval " +
                      std::to_string(fromFile.dtInterval()) + " (evaluated at the next step)");
    }
  } else if (checkpoint.dtSafety() > 0.0 || fromFile.dt() != checkpoint.dt()) {
    notes.push_back("engine.dt: " + str(fromFile.dt()) + " s (the checkpoint's: " + str(checkpoint.dt()) + " s)");
    checkpoint.clearDtFromStiffness();
    checkpoint.setDt(fromFile.dt());
  }
  if (fromFile.damping() != checkpoint.damping()) {
    notes.push_back("engine.damping: " + str(fromFile.damping()) + " (the checkpoint's: " + str(checkpoint.damping()) +
                    ")");
    checkpoint.setDamping(fromFile.damping());
  }
  if (fromFile.dampGravity() != checkpoint.dampGravity()) {
    notes.push_back(std::string("engine.dampGravity: ") + (fromFile.dampGravity() ? "true" : "false") +
                    " (the checkpoint's: " + (checkpoint.dampGravity() ? "true" : "false") + ")");
    checkpoint.setDampGravity(fromFile.dampGravity());
  }
  return notes;
}

}  // namespace dem::io
