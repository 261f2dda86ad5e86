// dem-cache-probe: how much two cores slow each other down when each reads its own data, by the
// size of that data (docs/performance.md, "Two threads on this machine"). One thread, then two at
// once, each on its own array:
//  - latency: a pointer chase (one random cycle over all entries: every load waits for the one
//    before, and no prefetcher can guess the next), nanoseconds per load;
//  - bandwidth: sums of the array read in order, gigabytes per second per thread.
// Where two threads take longer than one, the cores share what holds that size (the last-level
// cache, or the memory's bandwidth), and work whose data is that large cannot gain twice from a
// second core. Then two figures without data:
//  - compute: independent multiply-add chains in registers, one thread and then two at once: how
//    much work two cores do together against one (2 where nothing is shared; a host that slows
//    its cores when both run, or shares them with other machines, gives less);
//  - handoff: two threads take turns writing one cache line, nanoseconds per turn: what a core
//    waits for a line the other core wrote last (a body one thread's contacts read after the
//    other thread's integrator moved it).
//   dem-cache-probe [LOADS]   (default 5e7 loads per size and thread)
#include <omp.h>

#include <algorithm>
#include <atomic>
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

// Gigabytes per second of sums over `a` read in order, `loads` doubles in all.
double stream(const std::vector<double>& a, long loads, double& end) {
  double sum = 0.0;
  for (const double x : a) sum += x;  // (the array into the caches once)
  const long passes = std::max(1L, loads / static_cast<long>(a.size()));
  const auto t0 = std::chrono::steady_clock::now();
  for (long r = 0; r < passes; ++r) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;  // (four chains: the adds do not wait on each other)
    for (std::size_t i = 0; i + 4 <= a.size(); i += 4) {
      s0 += a[i];
      s1 += a[i + 1];
      s2 += a[i + 2];
      s3 += a[i + 3];
    }
    sum += s0 + s1 + s2 + s3;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end = sum;
  return 1e-9 * static_cast<double>(passes) * static_cast<double>(a.size() * sizeof(double)) / s;
}

// Seconds for `rounds` rounds of 32 independent multiply-add chains (no memory traffic). Not inlined:
// inlined into the parallel region, the chains went through memory and ran at half speed.
[[gnu::noinline]] double compute(long rounds, double& end) {
  double a[32];
  for (int i = 0; i < 32; ++i) a[i] = 1.0 + 1e-3 * i;
  const auto t0 = std::chrono::steady_clock::now();
  for (long r = 0; r < rounds; ++r)
    for (double& x : a) x = x * 0.999999 + 1e-6;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  end = std::accumulate(a, a + 32, 0.0);
  return s;
}

// Nanoseconds per turn of two threads writing one line in turn (thread t waits for the value that
// is its turn, then writes the next), `turns` turns; one thread of a team of two calls it each.
double handoff(std::atomic<long>& line, long turns, int t) {
  const auto t0 = std::chrono::steady_clock::now();
  for (long v = t; v < turns; v += 2) {
    while (line.load(std::memory_order_acquire) != v) {
    }
    line.store(v + 1, std::memory_order_release);
  }
  return 1e9 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
         static_cast<double>(turns);
}

}  // namespace

int main(int argc, char** argv) {
  const long loads = argc > 1 ? std::atol(argv[1]) : 50'000'000L;
  const char* oneCore = omp_get_max_threads() < 2 ? "  (one core only)" : "";
  std::printf("latency: a random pointer chase, ns per load\n");
  std::printf("%-10s %14s %22s %8s\n", "array", "one thread", "two threads (each)", "ratio");
  for (std::size_t kb = 256; kb <= 32768; kb *= 2) {
    const std::size_t n = kb * 1024 / sizeof(std::uint32_t);
    std::vector<std::uint32_t> a = randomCycle(n, 1), b = randomCycle(n, 2);
    std::uint32_t ends[3] = {0, 0, 0};
    const double alone = chase(a, loads, ends[2]);
    double both[2] = {0.0, 0.0};
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
#pragma omp barrier
      both[t] = chase(t == 0 ? a : b, loads, ends[t]);
    }
    const double two = 0.5 * (both[0] + both[1]);
    std::printf("%7zu KB %11.2f ns %19.2f ns %8.2f%s\n", kb, alone, two, two / alone, oneCore);
    if (ends[0] + ends[1] + ends[2] == 0xffffffffu) std::printf(" ");  // (the chases' results used)
  }
  std::printf("bandwidth: sums read in order, GB/s per thread\n");
  std::printf("%-10s %14s %22s %8s\n", "array", "one thread", "two threads (each)", "ratio");
  for (std::size_t kb = 256; kb <= 262144; kb *= 4) {
    const std::size_t n = kb * 1024 / sizeof(double);
    std::vector<double> a(n, 1.0), b(n, 2.0);
    double ends[3] = {0.0, 0.0, 0.0};
    const double alone = stream(a, 4 * loads, ends[2]);
    double both[2] = {0.0, 0.0};
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
#pragma omp barrier
      both[t] = stream(t == 0 ? a : b, 4 * loads, ends[t]);
    }
    const double two = 0.5 * (both[0] + both[1]);
    std::printf("%7zu KB %11.2f GB/s %17.2f GB/s %8.2f%s\n", kb, alone, two, alone / two, oneCore);
    if (ends[0] + ends[1] + ends[2] == -1.0) std::printf(" ");  // (the sums used)
  }
  {
    const long rounds = loads * 4;
    double ends[3] = {0.0, 0.0, 0.0};
    const double alone = compute(rounds, ends[2]);
    double both[2] = {0.0, 0.0};
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
#pragma omp barrier
      both[t] = compute(rounds, ends[t]);
    }
    const double two = std::max(both[0], both[1]);
    std::printf("compute: %.3f s one thread, %.3f s two threads at once: two cores do %.2f times one core's work%s\n",
                alone, two, 2.0 * alone / two, oneCore);
    if (ends[0] + ends[1] + ends[2] == -1.0) std::printf(" ");  // (the chains used)
  }
  if (omp_get_max_threads() >= 2) {
    alignas(64) std::atomic<long> line{0};
    double ns[2] = {0.0, 0.0};
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
#pragma omp barrier
      ns[t] = handoff(line, loads / 10, t);
    }
    std::printf("handoff: %.1f ns per turn of a cache line between the two threads\n", std::max(ns[0], ns[1]));
  }
  return 0;
}
