// dem-cache-probe: how much two cores slow each other down when each reads its own data, by the
// size of that data (docs/performance.md, "Two threads on this machine"). One thread, then two at
// once, each follows a pointer chase through its own array (one random cycle over all entries:
// every load waits for the one before, and no prefetcher can guess the next), and prints the
// nanoseconds per load. Where two threads take longer per load than one, the cores share what
// holds that size (the last-level cache, or the memory's bandwidth), and work whose data is that
// large cannot gain twice from a second core.
//   dem-cache-probe [LOADS]   (default 5e7 loads per size and thread)
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

// One cycle through all n entries (Sattolo's algorithm): next[i] is the entry read after i.
std::vector<std::uint32_t> randomCycle(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  for (std::size_t i = n - 1; i > 0; --i) {
    std::uniform_int_distribution<std::size_t> pick(0, i - 1);
    std::swap(order[i], order[pick(rng)]);
  }
  std::vector<std::uint32_t> next(n);
  for (std::size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  return next;
}

// Nanoseconds per load of a chase of `loads` steps through `next`.
double chase(const std::vector<std::uint32_t>& next, long loads, std::uint32_t& end) {
  std::uint32_t k = 0;
  for (std::size_t i = 0; i < next.size(); ++i) k = next[k];  // (the array into the caches once)
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < loads; ++i) k = next[k];
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end = k;
  return 1e9 * s / static_cast<double>(loads);
}

}  // namespace

int main(int argc, char** argv) {
  const long loads = argc > 1 ? std::atol(argv[1]) : 50'000'000L;
  std::printf("%-10s %14s %22s %8s\n", "array", "one thread", "two threads (each)", "ratio");
  for (std::size_t kb = 256; kb <= 32768; kb *= 2) {
    const std::size_t n = kb * 1024 / sizeof(std::uint32_t);
    std::vector<std::uint32_t> a = randomCycle(n, 1), b = randomCycle(n, 2);
    std::uint32_t sink = 0;
    const double alone = chase(a, loads, sink);
    double both[2] = {0.0, 0.0};
    std::uint32_t ends[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
#pragma omp barrier
      both[t] = chase(t == 0 ? a : b, loads, ends[t]);
    }
    const double two = 0.5 * (both[0] + both[1]);
    std::printf("%7zu KB %11.2f ns %19.2f ns %8.2f%s\n", kb, alone, two, two / alone,
                omp_get_max_threads() < 2 ? "  (one core only)" : "");
    if (sink + ends[0] + ends[1] == 0xffffffffu) std::printf(" ");  // (the chases' results used)
  }
  return 0;
}
