#include "harness/ranks.hpp"

#include "io/checkpoint.hpp"
#include "mpi/distributed_scene.hpp"

#include <algorithm>
#include <stdexcept>

namespace dem::verify {

// A scene stepped lately: its distributed copy (none when replicated) and its checkpoint bytes as
// the last step left it.
struct RanksStepper::Entry {
  const Scene* scene = nullptr;
  std::unique_ptr<mpi::DistributedScene> distributed;
  std::string replicatedWhy;  // non-empty: the scene steps itself
  std::string bytes;
};

namespace {
constexpr std::size_t kEntries = 8;  // scenes kept (a case steps a few side by side)
}

RanksStepper::RanksStepper(MPI_Comm comm) : comm_(comm) {}
RanksStepper::~RanksStepper() = default;

RanksStepper::Entry& RanksStepper::entryFor(const Scene* s) {
  const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e->scene == s; });
  std::unique_ptr<Entry> e;
  if (it != entries_.end()) {
    e = std::move(*it);
    entries_.erase(it);
  } else {
    e = std::make_unique<Entry>();
    e->scene = s;
    if (entries_.size() >= kEntries) entries_.erase(entries_.begin());
  }
  entries_.push_back(std::move(e));
  return *entries_.back();
}

void RanksStepper::step(Scene& s) {
  Entry& e = entryFor(&s);
  std::string now;
  io::checkpointBytes(s, {}, now);
  if (now != e.bytes) {  // a new scene, or the case changed it: shared anew
    e.distributed.reset();
    e.replicatedWhy.clear();
    try {
      e.distributed = std::make_unique<mpi::DistributedScene>(s, comm_);
      ++counts_.shared;
    } catch (const std::invalid_argument& why) {  // (the same on every rank: a function of the scene)
      e.replicatedWhy = why.what();
    }
  }
  if (!e.distributed) {
    s.step();  // (the hook's own call: the scene's own step)
    ++counts_.replicated;
    ++counts_.reasons[e.replicatedWhy];
  } else {
    e.distributed->step();
    s = e.distributed->gatherScene();
    ++counts_.distributed;
  }
  io::checkpointBytes(s, {}, e.bytes);
}

}  // namespace dem::verify
