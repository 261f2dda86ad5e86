#include "stop_signal.hpp"

#include <unistd.h>
#include <csignal>

namespace dem::io {

namespace {

// Lock-free, hence safe to use in a signal handler (C++20 [support.signal]).
static_assert(std::atomic<int>::is_always_lock_free);
std::atomic<int> gStop{0};

// First signal: remember it; a second one: end the process at once.
extern "C" void onStopSignal(int sig) {
  if (gStop.exchange(sig) != 0) _exit(128 + sig);
}

}  // namespace

const std::atomic<int>& stopSignal() { return gStop; }

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace dem::io
