// The Python module dem._dem (pybind11): scenes from scene files, checkpoints or built in Python,
// stepping with a callback, NumPy views of the particle arrays, contacts and the energy ledger.
// Documentation: docs/python.md. The Python package python/dem/__init__.py re-exports everything.
//
// User ids. Every particle id the module takes or returns is a user id (Particles::userId: the
// body's index when it was added), and every per-particle array is in the order of user ids, also
// after the spatial order (spatial_order) moved bodies to other slots in storage.
//
// NumPy views. positions, velocities, ... are (N, 3) float64 arrays over the scene's own
// std::vector<Vec3> storage (Vec3 is three contiguous doubles), read-only, with a guard object as
// their base: the guard holds a reference to the Python Scene (the scene lives as long as any view
// or slice of it) and counts the live views; adding a particle (which may reallocate the vectors)
// raises RuntimeError while any view is alive. Steps never resize the arrays, and the spatial order
// does not renumber the bodies while a view is alive (runSteps), so a view stays valid across step()
// and run() and shows the current values. While the bodies are not in the slots of their user ids
// (Particles::userOrder false) these properties return read-only copies in user-id order instead.

#include "io/checkpoint.hpp"
#include "io/contacts_output.hpp"
#include "io/json_errors.hpp"
#include "io/scene_loader.hpp"
#include "io/stl.hpp"
#include "solver/contact_law.hpp"
#include "solver/scene.hpp"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <omp.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace py = pybind11;

namespace {

// A Scene with what the module adds: material names, the step count a scene file asked for, and
// the number of live NumPy views of its particle arrays.
struct PyScene {
  dem::Scene scene;
  std::vector<std::string> materialNames;
  std::uint64_t fileSteps = 0;  // engine.steps (or duration / dt) of a scene file; 0 otherwise
  std::int64_t liveViews = 0;
  // Clump members' state before add_clump placed them rigidly (save_scene writes it, so that the
  // loader's clump makes the same bits): id -> (pos, vel, angVel, ori).
  struct MemberState {
    dem::Vec3 pos, vel, angVel;
    dem::Quat ori;
  };
  std::map<std::size_t, MemberState> preClump;

  void checkResizable() const {
    if (liveViews > 0)
      throw std::runtime_error("cannot add bodies while " + std::to_string(liveViews) +
                               " NumPy view(s) of the particle arrays are alive (adding may move the arrays); "
                               "delete the views (del) or take copies (np.array(view)) first");
  }
};

// Base object of a view: keeps the Python Scene alive and counts the view.
struct ViewGuard {
  py::object owner;
  PyScene* scene;
  ViewGuard(py::object o, PyScene* s) : owner(std::move(o)), scene(s) { ++scene->liveViews; }
  ViewGuard(const ViewGuard&) = delete;
  ViewGuard& operator=(const ViewGuard&) = delete;
  ~ViewGuard() { --scene->liveViews; }
};

py::array vec3View(py::object self, const std::vector<dem::Vec3>& v) {
  PyScene& s = self.cast<PyScene&>();
  static_assert(sizeof(dem::Vec3) == 3 * sizeof(double), "Vec3 must be three contiguous doubles");
  py::object guard = py::cast(std::make_unique<ViewGuard>(self, &s));
  const auto n = static_cast<py::ssize_t>(v.size());
  const auto stride = static_cast<py::ssize_t>(sizeof(double));
  py::array a(py::dtype::of<double>(), {n, py::ssize_t{3}}, {3 * stride, stride},
              v.empty() ? nullptr : v.data()->data(), guard);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array scalarView(py::object self, const std::vector<double>& v) {
  PyScene& s = self.cast<PyScene&>();
  py::object guard = py::cast(std::make_unique<ViewGuard>(self, &s));
  py::array a(py::dtype::of<double>(), {static_cast<py::ssize_t>(v.size())}, {static_cast<py::ssize_t>(sizeof(double))},
              v.data(), guard);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// A read-only array of one per-particle quantity (member `Field` of dem::Particles) in the order of
// user ids: a view of the scene's storage while the bodies are in the slots of their user ids
// (Particles::userOrder), else a copy.
template <auto Field>
py::array particleView(py::object self) {
  const dem::Particles& p = self.cast<PyScene&>().scene.particles;
  const auto& v = p.*Field;
  constexpr bool scalar = std::is_same_v<std::decay_t<decltype(v)>, std::vector<double>>;
  if (p.userOrder) {
    if constexpr (scalar) return scalarView(self, v);
    else return vec3View(self, v);
  }
  const auto n = static_cast<py::ssize_t>(v.size());
  py::array_t<double> a = scalar ? py::array_t<double>(n) : py::array_t<double>({n, py::ssize_t{3}});
  double* out = a.mutable_data();
  for (std::size_t u = 0; u < v.size(); ++u) {
    if constexpr (scalar) out[u] = v[p.slotOf[u]];
    else
      for (int k = 0; k < 3; ++k) out[3 * u + static_cast<std::size_t>(k)] = v[p.slotOf[u]][k];
  }
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// The slot of the body with user id `id` (IndexError naming it when out of range).
std::size_t slotOfUser(const PyScene& s, std::size_t id) {
  if (id >= s.scene.particles.size()) throw py::index_error("particle " + std::to_string(id) + " out of range");
  return s.scene.particles.slotOf[id];
}

// Moves every body back to the slot of its user id (Scene::renumber), e.g. before bodies become
// clump members, which keep their slots.
void restoreUserOrder(dem::Scene& scene) {
  if (scene.particles.userOrder) return;
  const std::vector<std::uint32_t> newSlot = scene.particles.userId;  // (a copy: renumber moves userId)
  scene.renumber(newSlot);
}

dem::Vec3 toVec3(const py::object& o, const char* what) {
  const std::vector<double> v = o.cast<std::vector<double>>();
  if (v.size() != 3)
    throw std::invalid_argument(std::string(what) + ": expected 3 numbers, got " + std::to_string(v.size()));
  return {v[0], v[1], v[2]};
}

py::array_t<double> vecCopy(const dem::Vec3& v) {
  py::array_t<double> a(3);
  auto m = a.mutable_unchecked<1>();
  for (py::ssize_t k = 0; k < 3; ++k) m(k) = v[k];
  return a;
}

py::array_t<double> mat3Copy(const dem::Mat3& m) {
  py::array_t<double> a({py::ssize_t{3}, py::ssize_t{3}});
  auto v = a.mutable_unchecked<2>();
  for (py::ssize_t r = 0; r < 3; ++r)
    for (py::ssize_t c = 0; c < 3; ++c) v(r, c) = m(r, c);
  return a;
}

// "xyzXYZ" letters as in scene files.
std::uint8_t blockedFromString(const std::string& s) {
  std::uint8_t b = 0;
  for (const char c : s) {
    std::uint8_t bit = 0;
    switch (c) {
      case 'x':
        bit = dem::dof::x;
        break;
      case 'y':
        bit = dem::dof::y;
        break;
      case 'z':
        bit = dem::dof::z;
        break;
      case 'X':
        bit = dem::dof::rx;
        break;
      case 'Y':
        bit = dem::dof::ry;
        break;
      case 'Z':
        bit = dem::dof::rz;
        break;
      default:
        bit = 0;
    }
    if (bit == 0 || (b & bit))
      throw std::invalid_argument(
          "blocked: expected a string of distinct letters from \"xyzXYZ\" (x y z: "
          "translations, X Y Z: rotations), got \"" +
          s + "\"");
    b = static_cast<std::uint8_t>(b | bit);
  }
  return b;
}

std::string blockedToString(std::uint8_t b) {
  std::string s;
  const char letters[] = "xyzXYZ";
  for (int k = 0; k < 6; ++k)
    if (b & (1u << k)) s += letters[k];
  return s;
}

std::uint32_t materialIndex(const PyScene& s, const py::object& m) {
  if (py::isinstance<py::str>(m)) {
    const std::string name = m.cast<std::string>();
    for (std::size_t k = 0; k < s.materialNames.size(); ++k)
      if (s.materialNames[k] == name) return static_cast<std::uint32_t>(k);
    throw std::invalid_argument("material: no material named \"" + name + "\"");
  }
  const long long k = m.cast<long long>();
  if (k < 0 || static_cast<std::size_t>(k) >= s.scene.materials.size())
    throw std::invalid_argument("material: index " + std::to_string(k) + " out of range (the scene has " +
                                std::to_string(s.scene.materials.size()) + " materials)");
  return static_cast<std::uint32_t>(k);
}

std::unique_ptr<PyScene> fromLoaded(dem::io::LoadedScene&& l) {
  auto p = std::make_unique<PyScene>();
  p->scene = std::move(l.scene);
  p->materialNames = std::move(l.materialNames);
  p->fileSteps = l.run.steps;
  return p;
}

std::unique_ptr<PyScene> fromCheckpoint(dem::Scene&& scene) {
  auto p = std::make_unique<PyScene>();
  p->scene = std::move(scene);
  for (std::size_t k = 0; k < p->scene.materials.size(); ++k)
    p->materialNames.push_back("material" + std::to_string(k));
  return p;
}

py::dict ledgerDict(const dem::EnergyLedger& e) {
  py::dict d;
  d["kinetic"] = e.kinetic;
  d["rotational"] = e.rotational;
  d["gravity"] = e.gravity;
  d["elastic"] = e.elastic;
  d["damping_dissipated"] = e.dampingDissipated;
  d["friction_dissipated"] = e.frictionDissipated;
  d["viscous_dissipated"] = e.viscousDissipated;
  d["spring_dissipated"] = e.springDissipated;
  d["boundary_work"] = e.boundaryWork;
  d["cell_work"] = e.cellWork;
  d["kinetic_total"] = e.kineticTotal;
  d["total"] = e.total();
  d["time"] = e.time;
  d["step"] = e.step;
  return d;
}

// Real contacts as arrays, in the order of their bodies' user ids, the ids user ids.
py::dict contactsDict(const dem::Scene& scene) {
  const dem::ContactStore& cs = scene.contacts;
  const dem::Particles& p = scene.particles;
  const std::vector<std::size_t> real = dem::io::realContactsByUserIds(p, cs);
  const auto n = static_cast<py::ssize_t>(real.size());
  py::array_t<std::uint32_t> id1(n), id2(n);
  py::array_t<bool> wall(n);
  py::array_t<double> normal({n, py::ssize_t{3}}), point({n, py::ssize_t{3}}), force({n, py::ssize_t{3}}),
      fn({n, py::ssize_t{3}}), fs({n, py::ssize_t{3}}), overlap(n);
  auto i1 = id1.mutable_unchecked<1>();
  auto i2 = id2.mutable_unchecked<1>();
  auto w = wall.mutable_unchecked<1>();
  auto nm = normal.mutable_unchecked<2>();
  auto pt = point.mutable_unchecked<2>();
  auto f = force.mutable_unchecked<2>();
  auto f1 = fn.mutable_unchecked<2>();
  auto f2 = fs.mutable_unchecked<2>();
  auto ov = overlap.mutable_unchecked<1>();
  for (py::ssize_t r = 0; r < n; ++r) {
    const dem::Contact c = cs.get(real[static_cast<std::size_t>(r)]);
    i1(r) = p.userId[c.id1];
    i2(r) = p.userId[c.id2];
    w(r) = c.type == dem::ContactType::SphereWall;
    const dem::Vec3 nf = c.normal.dot(c.force) * c.normal;
    const dem::Vec3 sf = c.force - nf;
    for (py::ssize_t k = 0; k < 3; ++k) {
      nm(r, k) = c.normal[k];
      pt(r, k) = c.point[k];
      f(r, k) = c.force[k];
      f1(r, k) = nf[k];
      f2(r, k) = sf[k];
    }
    ov(r) = -c.u[0];
  }
  py::dict d;
  d["id1"] = id1;
  d["id2"] = id2;
  d["is_wall"] = wall;
  d["normal"] = normal;
  d["point"] = point;
  d["force"] = force;
  d["normal_force"] = fn;
  d["shear_force"] = fs;
  d["overlap"] = overlap;
  return d;
}

// The scene as a JSON scene file (io/scene.schema.json) that load_scene reads back to the same
// bits: an initial state (no step run yet), its bodies in the file's id order (walls, spheres,
// bodies, clump bodies), no periodic cell. Spheres whose mass and inertia are sphereSpec's for their
// material's density are "particles", other bodies "bodies"; doubles are written so that they read
// back exactly (nlohmann-json's shortest round-trip form).
nlohmann::json sceneJson(const PyScene& ps, std::uint64_t steps) {
  const dem::Scene& s = ps.scene;
  const dem::Particles& p = s.particles;
  if (s.stepCount != 0)
    throw std::invalid_argument("save_scene: the scene has run " + std::to_string(s.stepCount) +
                                " steps; a scene file holds an initial state (save a checkpoint instead)");
  if (s.cell) throw std::invalid_argument("save_scene: periodic scenes are not supported");
  if (!p.meshes.empty())
    throw std::invalid_argument("save_scene: scenes with mesh walls are not supported (write the scene file's "
                                "\"meshes\" by hand, or save a checkpoint)");
  const auto vec = [](const dem::Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); };
  nlohmann::json j = nlohmann::json::object();
  j["materials"] = nlohmann::json::array();
  for (std::size_t k = 0; k < s.materials.size(); ++k) {
    const dem::Material& m = s.materials[k];
    j["materials"].push_back({{"name", ps.materialNames[k]},
                              {"density", m.density},
                              {"young", m.young},
                              {"poisson", m.poisson},
                              {"ksRatio", m.ksRatio},
                              {"frictionAngle", m.frictionAngle},
                              {"restitution", m.restitution}});
  }
  const auto name = [&](std::size_t i) { return ps.materialNames[p.material[i]]; };
  nlohmann::json walls = nlohmann::json::array(), spheres = nlohmann::json::array(), bodies = nlohmann::json::array(),
                 clumps = nlohmann::json::array();
  int stage = 0;  // 0 walls, 1 spheres, 2 bodies, 3 clump bodies
  const char* stageName[] = {"walls", "spheres", "bodies", "clump bodies"};
  for (std::size_t u = 0; u < p.size(); ++u) {  // (in the order of user ids; i the slot)
    const std::size_t i = p.slotOf[u];
    int kind = 0;
    if (p.isWall(i)) kind = 0;
    else if (p.isClump[i]) kind = 3;
    else {
      const dem::ParticleSpec ref = dem::sphereSpec(p.pos[i], p.radius[i], s.materials[p.material[i]].density);
      const auto pre = ps.preClump.find(u);
      const dem::Quat& ori = pre == ps.preClump.end() ? p.ori[i] : pre->second.ori;
      const bool sphere = p.mass[i] == ref.mass && p.inertia[i] == ref.inertia && ori.coeffs() == ref.ori.coeffs();
      kind = sphere ? 1 : 2;
    }
    if (kind < stage)
      throw std::invalid_argument("save_scene: particle " + std::to_string(u) + " (one of the " + stageName[kind] +
                                  ") follows " + stageName[stage] +
                                  "; a scene file numbers walls first, then "
                                  "spheres, bodies and clump bodies: add them in that order");
    stage = kind;
    const std::string blocked = blockedToString(p.blocked[i]);
    if (kind == 0) {
      walls.push_back(
          {{"point", vec(p.pos[i])}, {"normal", vec(p.walls[p.shapeIndex[i]].normal)}, {"material", name(i)}});
      continue;
    }
    if (kind == 3) continue;
    PyScene::MemberState st{p.pos[i], p.vel[i], p.angVel[i], p.ori[i]};
    if (p.isClumpMember(i)) {
      const auto it = ps.preClump.find(u);
      if (it == ps.preClump.end())
        throw std::invalid_argument("save_scene: particle " + std::to_string(u) +
                                    " is a clump member whose state before the clump was made is unknown (a scene "
                                    "read from a file or checkpoint); only clumps made by add_clump can be written");
      st = it->second;
    }
    nlohmann::json b = {{"pos", vec(st.pos)},
                        {"radius", p.radius[i]},
                        {"material", name(i)},
                        {"vel", vec(st.vel)},
                        {"angVel", vec(st.angVel)}};
    if (!blocked.empty()) b["blocked"] = blocked;
    if (kind == 1) {
      spheres.push_back(b);
    } else {
      const dem::Quat& q = st.ori;
      b["mass"] = p.mass[i];
      b["inertia"] = vec(p.inertia[i]);
      b["ori"] = nlohmann::json::array({q.w(), q.x(), q.y(), q.z()});
      bodies.push_back(b);
    }
  }
  for (const dem::Clump& c : s.clumps.list) clumps.push_back({{"members", c.members}});
  if (!walls.empty()) j["walls"] = walls;
  if (!spheres.empty()) j["particles"] = spheres;
  if (!bodies.empty()) j["bodies"] = bodies;
  if (!clumps.empty()) j["clumps"] = clumps;
  nlohmann::json e = {{"steps", steps},
                      {"gravity", vec(s.gravity)},
                      {"damping", s.damping()},
                      {"verletDist", s.collider.verletDist},
                      {"law", dem::lawName(s.law)},
                      {"firstStepAdjustment", s.adjVel0()},
                      {"dampGravity", s.dampGravity()}};
  if (s.dtSafety() > 0.0) e["dt"] = {{"fromStiffness", {{"safety", s.dtSafety()}, {"interval", s.dtInterval()}}}};
  else if (s.dt() > 0.0) e["dt"] = s.dt();
  else throw std::invalid_argument("save_scene: dt is not set");
  const dem::RotationAlgorithm r = s.rotationAlgorithm();
  e["rotation"] = r == dem::RotationAlgorithm::FinchamAT     ? "finchamAT"
                  : r == dem::RotationAlgorithm::FinchamYade ? "finchamYade"
                  : r == dem::RotationAlgorithm::Omelyan     ? "omelyan"
                                                             : "spiral";
  j["engine"] = e;
  return j;
}

// One line per material, wall, particle, body and clump, the sections in the file's order.
std::string sceneText(const nlohmann::json& j) {
  std::string out = "{\n";
  bool first = true;
  for (const char* key : {"materials", "walls", "particles", "bodies", "clumps", "engine"}) {
    if (!j.contains(key)) continue;
    out += first ? "" : ",\n";
    first = false;
    out += "  \"" + std::string(key) + "\": ";
    const nlohmann::json& v = j[key];
    if (v.is_array()) {
      out += "[";
      for (std::size_t k = 0; k < v.size(); ++k) out += (k ? ",\n    " : "\n    ") + v[k].dump();
      out += "\n  ]";
    } else {
      out += v.dump();
    }
  }
  return out + "\n}\n";
}

dem::ContactLaw lawFrom(const std::string& name) {
  dem::ContactLaw law{};
  if (!dem::lawFromName(name, law))
    throw std::invalid_argument("law: expected \"cundall\" or \"hertzMindlin\", got \"" + name + "\"");
  return law;
}

// Runs k steps with the GIL released. While NumPy views of the particle arrays are alive, the spatial
// order does not renumber the bodies (the views show the storage, which stays in user-id order);
// the results are the same bits either way.
void stepScene(PyScene& s, std::uint64_t k) {
  struct Restore {
    dem::Scene& scene;
    bool on;
    ~Restore() { scene.setSpatialOrder(on); }
  } restore{s.scene, s.scene.spatialOrder()};
  if (s.liveViews > 0) s.scene.setSpatialOrder(false);
  py::gil_scoped_release release;
  s.scene.run(k);
}

// Runs n steps, calling back every `every` steps (after the step) with the scene; the GIL is
// released while stepping. Ctrl-C is honoured between chunks of steps.
void runSteps(py::object self, std::uint64_t n, const py::object& callback, std::uint64_t every) {
  PyScene& s = self.cast<PyScene&>();
  const bool haveCallback = !callback.is_none();
  if (haveCallback && every == 0) throw std::invalid_argument("every: expected a positive number of steps, got 0");
  const std::uint64_t chunk = haveCallback ? every : 1000;
  std::uint64_t done = 0;
  while (done < n) {
    const std::uint64_t k = std::min(chunk, n - done);
    stepScene(s, k);
    done += k;
    if (haveCallback && k == every) {
      const py::object r = callback(self);
      if (!r.is_none() && !r.cast<bool>()) return;  // the callback returned False: stop
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

constexpr const char* kViewDoc =
    "A read-only array of one value per particle, in the order of particle (user) ids. A live view of the "
    "scene's storage (no copy) while every body is in the slot of its id; after the spatial order "
    "(spatial_order) moved bodies in storage, a read-only copy (writeable=False) taken now.";

}  // namespace

PYBIND11_MODULE(_dem, m) {
  m.doc() = "dem: discrete element method (spheres, walls, clumps) - scenes, stepping, NumPy views";

  // Exceptions. invalid_argument -> ValueError and runtime_error -> RuntimeError are pybind11's
  // defaults; these add the library's own types (subclasses, with the same messages).
  static py::exception<dem::io::SceneError> sceneError(m, "SceneError", PyExc_ValueError);
  static py::exception<dem::io::CheckpointError> checkpointError(m, "CheckpointError", PyExc_RuntimeError);
  static py::exception<dem::RunawayError> runawayError(m, "RunawayError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const dem::RunawayError& e) {
      py::object inst = py::reinterpret_borrow<py::object>(runawayError.ptr())(e.what());
      inst.attr("step") = e.step;
      inst.attr("particle") = e.particle;
      inst.attr("dt") = e.dt;
      inst.attr("dt_critical") = e.dtCritical;
      PyErr_SetObject(runawayError.ptr(), inst.ptr());
    } catch (const dem::io::SceneError& e) {
      py::object inst = py::reinterpret_borrow<py::object>(sceneError.ptr())(e.what());
      inst.attr("file") = e.file;
      inst.attr("path") = e.path;
      inst.attr("problem") = e.problem;
      PyErr_SetObject(sceneError.ptr(), inst.ptr());
    } catch (const dem::io::CheckpointError& e) {
      PyErr_SetString(checkpointError.ptr(), e.what());
    }
  });

  py::class_<ViewGuard>(m, "_ViewGuard");

  py::class_<dem::Material>(m, "Material", "A material (solver/materials.hpp); SI units, angles in radians.")
      .def(py::init([](double density, double young, double ksRatio, double frictionAngle, double poisson,
                       double restitution, const py::object& friction) {
             dem::Material mat;
             mat.density = density;
             mat.young = young;
             mat.ksRatio = ksRatio;
             mat.frictionAngle = frictionAngle;
             mat.poisson = poisson;
             mat.restitution = restitution;
             if (!friction.is_none()) mat.frictionAngle = std::atan(friction.cast<double>());
             try {
               dem::validateMaterial(0, mat);
             } catch (const std::invalid_argument& e) {  // "material 0: ..." -> "Material: ..."
               const std::string what = e.what();
               const std::string prefix = "material 0: ";
               throw std::invalid_argument("Material: " +
                                           (what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what));
             }
             return mat;
           }),
           py::kw_only(), py::arg("density") = 2600.0, py::arg("young") = 1e8, py::arg("ks_ratio") = 0.2,
           py::arg("friction_angle") = 0.5, py::arg("poisson") = 0.25, py::arg("restitution") = 1.0,
           py::arg("friction") = py::none(), "friction = mu = tan(friction_angle) replaces friction_angle when given.")
      .def_readwrite("density", &dem::Material::density)
      .def_readwrite("young", &dem::Material::young)
      .def_readwrite("ks_ratio", &dem::Material::ksRatio)
      .def_readwrite("friction_angle", &dem::Material::frictionAngle)
      .def_readwrite("poisson", &dem::Material::poisson)
      .def_readwrite("restitution", &dem::Material::restitution)
      .def_property(
          "friction", [](const dem::Material& mat) { return std::tan(mat.frictionAngle); },
          [](dem::Material& mat, double mu) { mat.frictionAngle = std::atan(mu); })
      .def("__repr__", [](const dem::Material& mat) {
        return "Material(density=" + py::repr(py::float_(mat.density)).cast<std::string>() +
               ", young=" + py::repr(py::float_(mat.young)).cast<std::string>() +
               ", ks_ratio=" + py::repr(py::float_(mat.ksRatio)).cast<std::string>() +
               ", friction_angle=" + py::repr(py::float_(mat.frictionAngle)).cast<std::string>() +
               ", poisson=" + py::repr(py::float_(mat.poisson)).cast<std::string>() +
               ", restitution=" + py::repr(py::float_(mat.restitution)).cast<std::string>() + ")";
      });

  py::class_<PyScene>(m, "Scene", "A simulation (solver/scene.hpp).")
      .def(py::init<>())
      // --- building ---------------------------------------------------------------------------
      .def(
          "add_material",
          [](PyScene& s, const dem::Material& mat, const std::string& name) {
            const std::size_t k = s.scene.materials.size();
            dem::validateMaterial(k, mat);
            const std::string n = name.empty() ? "material" + std::to_string(k) : name;
            for (const std::string& other : s.materialNames)
              if (other == n) throw std::invalid_argument("add_material: a material named \"" + n + "\" exists");
            s.scene.materials.push_back(mat);
            s.materialNames.push_back(n);
            return k;
          },
          py::arg("material"), py::arg("name") = "", "Appends a material; returns its index.")
      .def_property_readonly(
          "materials", [](const PyScene& s) { return s.scene.materials; }, "Copies of the materials.")
      .def_property_readonly("material_names", [](const PyScene& s) { return s.materialNames; })
      .def(
          "set_material",
          [](PyScene& s, const py::object& which, const dem::Material& mat) {
            const std::uint32_t k = materialIndex(s, which);
            dem::validateMaterial(k, mat);
            s.scene.materials[k] = mat;
          },
          py::arg("material"), py::arg("value"), "Replaces a material (index or name).")
      .def(
          "add_sphere",
          [](PyScene& s, const py::object& pos, double radius, const py::object& material, const py::object& vel,
             const py::object& angVel, const std::string& blocked, bool fixed) {
            s.checkResizable();
            const std::uint32_t mat = materialIndex(s, material);
            dem::ParticleSpec p = dem::sphereSpec(toVec3(pos, "pos"), radius, s.scene.materials[mat].density);
            p.material = mat;
            p.vel = toVec3(vel, "vel");
            p.angVel = toVec3(angVel, "ang_vel");
            p.blocked = fixed ? dem::dof::all : blockedFromString(blocked);
            const std::size_t slot = s.scene.particles.add(p);
            return std::size_t{s.scene.particles.userId[slot]};
          },
          py::arg("pos"), py::arg("radius"), py::arg("material") = 0, py::arg("vel") = std::array<double, 3>{0, 0, 0},
          py::arg("ang_vel") = std::array<double, 3>{0, 0, 0}, py::arg("blocked") = "", py::arg("fixed") = false,
          "A sphere of the material's density (sphereSpec); returns its particle id.")
      .def(
          "add_body",
          [](PyScene& s, const py::object& pos, double mass, const py::object& inertia, double radius,
             const py::object& material, const py::object& vel, const py::object& angVel, const py::object& ori,
             const std::string& blocked) {
            s.checkResizable();
            dem::ParticleSpec p;
            p.pos = toVec3(pos, "pos");
            p.mass = mass;
            p.inertia = toVec3(inertia, "inertia");
            p.radius = radius;
            p.material = materialIndex(s, material);
            p.vel = toVec3(vel, "vel");
            p.angVel = toVec3(angVel, "ang_vel");
            const std::vector<double> q = ori.cast<std::vector<double>>();
            if (q.size() != 4) throw std::invalid_argument("ori: expected a quaternion [w, x, y, z]");
            const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(std::abs(norm - 1.0) <= 1e-6))
              throw std::invalid_argument("ori: expected a unit quaternion [w, x, y, z]");
            p.ori = dem::Quat(q[0], q[1], q[2], q[3]).normalized();
            p.blocked = blockedFromString(blocked);
            const std::size_t slot = s.scene.particles.add(p);
            return std::size_t{s.scene.particles.userId[slot]};
          },
          py::arg("pos"), py::arg("mass"), py::arg("inertia"), py::arg("radius"), py::arg("material") = 0,
          py::arg("vel") = std::array<double, 3>{0, 0, 0}, py::arg("ang_vel") = std::array<double, 3>{0, 0, 0},
          py::arg("ori") = std::array<double, 4>{1, 0, 0, 0}, py::arg("blocked") = "",
          "A body with given mass and principal inertia (Particles::add); returns its particle id.")
      .def(
          "add_wall",
          [](PyScene& s, const py::object& point, const py::object& normal, const py::object& material,
             const py::object& vel) {
            s.checkResizable();
            const std::size_t id =
                s.scene.particles.addWall(toVec3(point, "point"), toVec3(normal, "normal"), materialIndex(s, material));
            s.scene.particles.vel[id] = toVec3(vel, "vel");
            return std::size_t{s.scene.particles.userId[id]};  // (a wall's slot is its user id)
          },
          py::arg("point"), py::arg("normal"), py::arg("material") = 0, py::arg("vel") = std::array<double, 3>{0, 0, 0},
          "An infinite wall, fixed or moving at the constant velocity vel; returns its particle id.")
      .def(
          "add_mesh",
          [](PyScene& s, const py::object& triangles, const py::object& material, const py::object& centre,
             const py::object& vel, const py::object& angVel, const std::string& name) {
            s.checkResizable();
            dem::TriangleMesh mesh;
            if (py::isinstance<py::str>(triangles)) {
              mesh = dem::io::readStl(triangles.cast<std::string>());
            } else {
              const auto a = triangles.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
              if (a.ndim() != 3 || a.shape(1) != 3 || a.shape(2) != 3)
                throw std::invalid_argument("add_mesh: triangles: expected an STL file name or an array of shape (n, 3, 3)");
              const auto t = a.unchecked<3>();
              for (py::ssize_t k = 0; k < t.shape(0); ++k) {
                dem::Triangle tri;
                for (int v = 0; v < 3; ++v)
                  tri.v[static_cast<std::size_t>(v)] = dem::Vec3(t(k, v, 0), t(k, v, 1), t(k, v, 2));
                mesh.push_back(tri);
              }
            }
            const dem::MeshMotion motion{toVec3(centre, "centre"), toVec3(vel, "vel"), toVec3(angVel, "ang_vel"),
                                         s.scene.time};
            const std::size_t index = s.scene.particles.addMesh(mesh, materialIndex(s, material), motion, name);
            return py::make_tuple(index, s.scene.particles.meshes[index].first, s.scene.particles.meshes[index].count);
          },
          py::arg("triangles"), py::arg("material") = 0, py::arg("centre") = std::vector<double>{0, 0, 0},
          py::arg("vel") = std::vector<double>{0, 0, 0}, py::arg("ang_vel") = std::vector<double>{0, 0, 0},
          py::arg("name") = "",
          "A mesh wall from an STL file or an (n, 3, 3) array of triangles, optionally moving rigidly from now "
          "(x(t) = centre + vel t + R(ang_vel t)(x0 - centre)); returns (mesh index, first facet id, facet count).")
      .def(
          "add_clump",
          [](PyScene& s, const std::vector<std::size_t>& members) {
            s.checkResizable();
            restoreUserOrder(s.scene);  // (clump members keep their slots: those of their user ids)
            const dem::Particles& p = s.scene.particles;
            std::map<std::size_t, PyScene::MemberState> before;
            for (const std::size_t id : members)
              if (id < p.size()) before[id] = {p.pos[id], p.vel[id], p.angVel[id], p.ori[id]};
            const std::size_t body = s.scene.addClump(members);
            s.preClump.merge(before);
            return body;
          },
          py::arg("members"),
          "A clump of existing particles (user ids); returns the clump body's particle id. Moves the bodies back "
          "to the slots of their user ids first, if the spatial order had moved them.")
      // --- settings -----------------------------------------------------------------------------
      .def_property(
          "gravity", [](const PyScene& s) { return vecCopy(s.scene.gravity); },
          [](PyScene& s, const py::object& g) { s.scene.gravity = toVec3(g, "gravity"); })
      .def_property(
          "dt", [](const PyScene& s) { return s.scene.dt(); }, [](PyScene& s, double dt) { s.scene.setDt(dt); })
      .def_property(
          "damping", [](const PyScene& s) { return s.scene.damping(); },
          [](PyScene& s, double d) { s.scene.setDamping(d); })
      .def_property(
          "law", [](const PyScene& s) { return dem::lawName(s.scene.law); },
          [](PyScene& s, const std::string& name) { s.scene.law = lawFrom(name); })
      .def_property(
          "verlet_dist", [](const PyScene& s) { return s.scene.collider.verletDist; },
          [](PyScene& s, double v) {
            if (!(v > -10.0 && v < 1e6))
              throw std::invalid_argument(
                  "verlet_dist: expected a number in (-10, 1e6): > 0 a length, < 0 a fraction of the smallest radius");
            s.scene.collider.verletDist = v;
            s.scene.periodicCollider.verletDist = v;
          })
      .def_property(
          "first_step_adjustment", [](const PyScene& s) { return s.scene.adjVel0(); },
          [](PyScene& s, bool on) { s.scene.setAdjVel0(on); })
      .def_property(
          "damp_gravity", [](const PyScene& s) { return s.scene.dampGravity(); },
          [](PyScene& s, bool on) { s.scene.setDampGravity(on); })
      .def_property(
          "spatial_order", [](const PyScene& s) { return s.scene.spatialOrder(); },
          [](PyScene& s, bool on) { s.scene.setSpatialOrder(on); },
          "Whether the solver may renumber the spheres in storage along space for speed (Scene::setSpatialOrder; "
          "off by default, on for scenes read from a scene file unless engine.spatialOrder is false). Ids and "
          "arrays stay in user-id order; while the bodies are not in the slots of their user ids, the "
          "per-particle arrays are read-only copies instead of views. Once the bodies have moved, every sum runs "
          "in the order of user ids (results independent of the storage order); with user_id_sums from the "
          "first step, so that the results are the same bits with the spatial order on or off.")
      .def_property(
          "user_id_sums", [](const PyScene& s) { return s.scene.userIdSums(); },
          [](PyScene& s, bool on) { s.scene.setUserIdSums(on); },
          "Sum every contact force and energy in the order of the bodies' user ids from the first step "
          "(Scene::setUserIdSums; engine.userIdSums): the results are then the same bits for any storage "
          "order, with the spatial order on or off, at the cost of a gather pass per step. Off by default.")
      .def_property_readonly(
          "renumberings", [](const PyScene& s) { return s.scene.renumberings(); },
          "How many times the spatial order renumbered the bodies in storage.")
      .def_property(
          "energy_check", [](const PyScene& s) { return s.scene.runaway.energyCheck; },
          [](PyScene& s, bool on) { s.scene.runaway.energyCheck = on; })
      .def(
          "set_dt_from_stiffness",
          [](PyScene& s, double safety, std::uint64_t interval) { s.scene.setDtFromStiffness(safety, interval); },
          py::arg("safety"), py::arg("interval") = 0)
      .def(
          "critical_timestep", [](const PyScene& s) { return s.scene.criticalTimestep().dt; },
          "Global-stiffness estimate of the critical timestep (p-wave without contacts).")
      .def_property_readonly("time", [](const PyScene& s) { return s.scene.time; })
      .def_property_readonly("step_count", [](const PyScene& s) { return s.scene.stepCount; })
      .def_property_readonly(
          "file_steps", [](const PyScene& s) { return s.fileSteps; },
          "The steps a scene file asks for (engine.steps, or duration / dt); 0 for other scenes.")
      .def_property_readonly("num_particles", [](const PyScene& s) { return s.scene.particles.size(); })
      .def("__len__", [](const PyScene& s) { return s.scene.particles.size(); })
      // --- stepping -----------------------------------------------------------------------------
      .def(
          "step", [](PyScene& s) { stepScene(s, 1); }, "One step (Scene::step).")
      .def("run", &runSteps, py::arg("n"), py::arg("callback") = py::none(), py::arg("every") = 1,
           "Runs n steps; with a callback, calls callback(scene) after every `every` steps (it may "
           "return False to stop early).")
      // --- state --------------------------------------------------------------------------------
      .def_property_readonly("positions", &particleView<&dem::Particles::pos>, kViewDoc)
      .def_property_readonly("velocities", &particleView<&dem::Particles::vel>, kViewDoc)
      .def_property_readonly("angular_velocities", &particleView<&dem::Particles::angVel>, kViewDoc)
      .def_property_readonly("forces", &particleView<&dem::Particles::force>, kViewDoc)
      .def_property_readonly("torques", &particleView<&dem::Particles::torque>, kViewDoc)
      .def_property_readonly("radii", &particleView<&dem::Particles::radius>, kViewDoc)
      .def_property_readonly("masses", &particleView<&dem::Particles::mass>, kViewDoc)
      .def_property_readonly(
          "ids",
          [](const PyScene& s) {
            py::array_t<std::int64_t> a(static_cast<py::ssize_t>(s.scene.particles.size()));
            auto v = a.mutable_unchecked<1>();
            for (py::ssize_t k = 0; k < v.shape(0); ++k) v(k) = k;
            return a;
          },
          "Particle (user) ids 0..N-1 (a copy).")
      .def_property_readonly(
          "materials_of",
          [](const PyScene& s) {
            const dem::Particles& p = s.scene.particles;
            py::array_t<std::uint32_t> a(static_cast<py::ssize_t>(p.size()));
            auto v = a.mutable_unchecked<1>();
            for (py::ssize_t u = 0; u < v.shape(0); ++u) v(u) = p.material[p.slotOf[static_cast<std::size_t>(u)]];
            return a;
          },
          "Material index of each particle (a copy).")
      .def_property_readonly(
          "is_wall",
          [](const PyScene& s) {
            py::array_t<bool> a(static_cast<py::ssize_t>(s.scene.particles.size()));
            auto v = a.mutable_unchecked<1>();
            for (py::ssize_t u = 0; u < v.shape(0); ++u)
              v(u) = s.scene.particles.isWall(s.scene.particles.slotOf[static_cast<std::size_t>(u)]);
            return a;
          },
          "Whether each particle is a wall (a copy).")
      .def(
          "blocked",
          [](const PyScene& s, std::size_t id) {
            return blockedToString(s.scene.particles.blocked[slotOfUser(s, id)]);
          },
          py::arg("id"))
      .def(
          "set_velocity",
          [](PyScene& s, std::size_t id, const py::object& v) {
            s.scene.particles.vel[slotOfUser(s, id)] = toVec3(v, "vel");
          },
          py::arg("id"), py::arg("vel"),
          "Sets a particle's stored velocity (mid-step once integrated; a blocked axis keeps it).")
      .def_property_readonly(
          "live_views", [](const PyScene& s) { return s.liveViews; }, "The number of live NumPy views.")
      .def_property_readonly(
          "cell",
          [](const PyScene& s) -> py::object {
            if (!s.scene.cell) return py::none();
            return mat3Copy(s.scene.cell->H());
          },
          "Periodic scenes: the cell matrix H (columns = side vectors; a copy); None otherwise.")
      .def_property_readonly(
          "stress", [](const PyScene& s) { return mat3Copy(s.scene.stress); },
          "Periodic scenes: the Love-Weber stress at t_n (Pa; a copy); zero otherwise.")
      .def_property_readonly(
          "energy", [](const PyScene& s) { return ledgerDict(s.scene.energy); },
          "The energy ledger (solver/energy.hpp) as a dict, terms at t_n = time - dt.")
      .def(
          "contacts", [](const PyScene& s) { return contactsDict(s.scene); },
          "The real contacts as a dict of arrays (copies), sorted by their bodies' ids: id1, id2 (particle ids), "
          "is_wall, normal, point, force (on id1), normal_force, shear_force, overlap.")
      .def_property_readonly("num_contacts", [](const PyScene& s) { return s.scene.contacts.countReal(); })
      .def(
          "copy",
          [](const PyScene& s) {
            auto p = std::make_unique<PyScene>();
            p->scene = s.scene;
            p->materialNames = s.materialNames;
            p->fileSteps = s.fileSteps;
            p->preClump = s.preClump;
            return p;
          },
          "An independent copy of the scene (its state, contacts and collider: it continues with the same bits).")
      .def("__copy__",
           [](const PyScene& s) {
             auto p = std::make_unique<PyScene>();
             p->scene = s.scene;
             p->materialNames = s.materialNames;
             p->fileSteps = s.fileSteps;
             p->preClump = s.preClump;
             return p;
           })
      .def("__deepcopy__",
           [](const PyScene& s, const py::object&) {
             auto p = std::make_unique<PyScene>();
             p->scene = s.scene;
             p->materialNames = s.materialNames;
             p->fileSteps = s.fileSteps;
             p->preClump = s.preClump;
             return p;
           })
      // --- files --------------------------------------------------------------------------------
      .def(
          "scene_json",
          [](const PyScene& s, const py::object& steps) {
            return sceneText(sceneJson(s, steps.is_none() ? s.fileSteps : steps.cast<std::uint64_t>()));
          },
          py::arg("steps") = py::none(), "The scene as the text of a JSON scene file (see save_scene).")
      .def(
          "save_scene",
          [](const PyScene& s, const std::string& path, const py::object& steps) {
            const std::string text =
                sceneText(sceneJson(s, steps.is_none() ? s.fileSteps : steps.cast<std::uint64_t>()));
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f << text;
            f.close();
            if (!f) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
          },
          py::arg("path"), py::arg("steps") = py::none(),
          "Writes the scene as a JSON scene file that load_scene reads back to the same bits: an "
          "initial state (no step run yet) with its bodies in the file's order (walls, spheres, "
          "bodies, clumps); engine.steps = steps (default: file_steps). No outputs are written into it.")
      .def(
          "save_checkpoint", [](const PyScene& s, const std::string& path) { dem::io::saveCheckpoint(s.scene, path); },
          py::arg("path"), "Writes the full state as a checkpoint (io/checkpoint.hpp; atomic).")
      .def("__repr__", [](const PyScene& s) {
        return "<dem.Scene: " + std::to_string(s.scene.particles.size()) + " bodies, " +
               std::to_string(s.scene.contacts.countReal()) + " contacts, step " + std::to_string(s.scene.stepCount) +
               ", t = " + py::repr(py::float_(s.scene.time)).cast<std::string>() + " s>";
      });

  m.def(
      "load_scene", [](const std::string& path) { return fromLoaded(dem::io::loadSceneFile(path)); }, py::arg("path"),
      "Reads a JSON scene file (io/scene_loader.hpp); SceneError names the file, JSON path and problem.");
  m.def(
      "load_scene_text",
      [](const std::string& text, const std::string& name) { return fromLoaded(dem::io::loadSceneText(text, name)); },
      py::arg("text"), py::arg("name") = "<string>", "Parses a JSON scene given as text.");
  m.def(
      "load_checkpoint", [](const std::string& path) { return fromCheckpoint(dem::io::loadCheckpoint(path)); },
      py::arg("path"), "Reads a checkpoint written by dem-run or Scene.save_checkpoint.");
  m.def(
      "set_threads",
      [](int n) {
        if (n < 1 || n > 1024) throw std::invalid_argument("set_threads: expected a number in [1, 1024]");
        omp_set_num_threads(n);
      },
      py::arg("n"), "OpenMP threads (results are the same bits for any number).");
  m.def("max_threads", [] { return omp_get_max_threads(); });
  m.attr("CHECKPOINT_VERSION") = dem::io::kCheckpointVersion;
}
