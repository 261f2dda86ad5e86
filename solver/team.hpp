#pragma once
// The calling thread's place in its OpenMP team: its number and the team's size (0 of 1 outside a
// parallel region, or without OpenMP), for loops that share work out themselves.

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

namespace dem {

struct TeamPlace {
  std::size_t thread = 0, threads = 1;
};

inline TeamPlace teamPlace() {
#ifdef _OPENMP
  return {static_cast<std::size_t>(omp_get_thread_num()), static_cast<std::size_t>(omp_get_num_threads())};
#else
  return {};
#endif
}

// Contiguous runs of n items (blocks of bodies or of contacts) for the threads of a team, balanced
// by measurement: each thread times its run (Timer), and after the runs the bounds move halfway
// towards those that would have given every run the same time, each run's time spread evenly over
// its items. Where the runs end changes no result (every caller's sums are per item or in item
// order), only which core does the work.
class BalancedRuns {
 public:
  // Equal runs when the team is not the one of the last use (call from one thread, before the runs).
  void prepare(std::size_t threads);
  // The items [first, second) of thread t of n.
  std::pair<std::size_t, std::size_t> run(std::size_t t, std::size_t n) const { return {at(t, n), at(t + 1, n)}; }
  // The team size of the last use (prepare).
  std::size_t threads() const { return bounds_.size() - 1; }
  // Measures thread t's run from its construction to its destruction.
  class Timer {
   public:
    Timer(BalancedRuns& runs, std::size_t t) : runs_(runs), t_(t), start_(std::chrono::steady_clock::now()) {}
    ~Timer() { runs_.record(t_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    BalancedRuns& runs_;
    std::size_t t_;
    std::chrono::steady_clock::time_point start_;
  };
  // Thread t's run took `seconds` (Timer; a test may give made-up times).
  void record(std::size_t t, double seconds) { seconds_[t] = seconds; }
  // After the runs (one thread): the bounds moved towards equal times.
  void balance();

 private:
  std::vector<double> bounds_{0.0, 1.0};  // the runs' bounds as shares of the items (threads + 1)
  std::vector<double> seconds_{0.0};      // each run's time at the last use
  std::size_t at(std::size_t t, std::size_t n) const;
};

// A run's parts in blocks of `block` items (the blocks of sums taken in item order): part(begin,
// end, b, head) for each block b that the run [first, last) meets, in order. head: the part begins
// inside block b, whose first items are another run's, so what it adds to b's sums is kept and added
// after the part before it (RunHeads): the same bits wherever the runs end.
template <class Part>
void forEachBlockPart(std::size_t first, std::size_t last, std::size_t block, Part&& part) {
  for (std::size_t a = first; a < last;) {
    const std::size_t b = a / block, end = std::min(last, (b + 1) * block);
    part(a, end, b, a != b * block);
    a = end;
  }
}

// What each thread's run keeps of the block it begins inside (forEachBlockPart's head), added to
// that block's sums after the runs, thread by thread (each head follows the part of the thread
// before it).
template <class Kept>
class RunHeads {
 public:
  // No heads (call from one thread, before the runs).
  void prepare(std::size_t threads) {
    block_.assign(threads, kNone);
    first_.resize(threads);
    kept_.resize(threads);
  }
  // Thread t's head is the part of block b from item `first`: what it keeps.
  Kept& keep(std::size_t t, std::size_t b, std::size_t first) {
    block_[t] = b;
    first_[t] = first;
    return kept_[t];
  }
  // add(b, first, kept) for each head, in thread order (after the runs).
  template <class Add>
  void replay(Add&& add) const {
    for (std::size_t t = 0; t < block_.size(); ++t)
      if (block_[t] != kNone) add(block_[t], first_[t], kept_[t]);
  }
  // Heads at the last use (a test asks that some run began inside a block).
  std::size_t count() const {
    return static_cast<std::size_t>(
        std::count_if(block_.begin(), block_.end(), [](std::size_t b) { return b != kNone; }));
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> block_, first_;
  std::vector<Kept> kept_;
};

}  // namespace dem
