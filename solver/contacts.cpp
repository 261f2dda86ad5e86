#include "contacts.hpp"

namespace dem {

void ContactStore::updateAdjacency(std::size_t nParticles) {
  if (adjacencyValid_ && adjParticles_ == nParticles) return;
  adjOffset_.assign(nParticles + 1, 0);
  for (const Contact& c : items) {
    ++adjOffset_[c.id1 + 1];
    ++adjOffset_[c.id2 + 1];
  }
  for (std::size_t i = 0; i < nParticles; ++i) adjOffset_[i + 1] += adjOffset_[i];
  adjEntry_.resize(2 * items.size());
  std::vector<std::uint32_t> fill(adjOffset_.begin(), adjOffset_.end() - 1);
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto idx = static_cast<std::uint32_t>(k);
    adjEntry_[fill[items[k].id1]++] = idx << 1;
    adjEntry_[fill[items[k].id2]++] = (idx << 1) | 1u;
  }
  adjacencyValid_ = true;
  adjParticles_ = nParticles;
}

void ContactStore::place(std::size_t index) {
  index_[pairKey(items[index].id1, items[index].id2)] = static_cast<std::uint32_t>(index);
}

}  // namespace dem
