#pragma once
// A clean stop on SIGINT and SIGTERM (dem-run): the first signal sets a flag that the run loop reads
// after each step (io/runner.hpp, RunOptions::stop): the step in progress is finished, a checkpoint
// is written (when the scene asks for checkpoints), the outputs are flushed and closed, and dem-run
// exits with its "interrupted" code. A second signal ends the process at once (_exit(128 + signal),
// as a shell reports a process killed by it): the files on disk are then as after kill -9.

#include <atomic>

namespace dem::io {

// The signal number of the first SIGINT or SIGTERM received since installStopHandlers(), 0 if none.
const std::atomic<int>& stopSignal();

// Installs the handlers of SIGINT and SIGTERM (sigaction; interrupted system calls are restarted).
void installStopHandlers();

}  // namespace dem::io
