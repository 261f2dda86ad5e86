// dem-run: runs a JSON scene file (io/scene.schema.json) with the outputs it asks for.
//
//   dem-run [options] SCENE.json
//     --out DIR        output directory (overrides outputs.directory; created when missing)
//     --steps N        run until step N (overrides engine.steps / engine.duration)
//     --restart FILE   resume from a checkpoint written by dem-run (the scene file must describe
//                      the same system; dt, damping, steps and output intervals may change:
//                      io/restart_check.hpp)
//     --threads N      OpenMP threads (overrides engine.threads)
//     --check          load and check the scene (dt, estimated for the automatic timestep, and the
//                      step count), run nothing
//     --quiet          no progress bar, size-distribution report or final line: only warnings and errors
//     --stage-times    at the end, the wall-clock time per step of each stage of the step, on stderr
//     -h, --help       every option and exit code, on stdout
// Under mpirun (a build with DEM_MPI), the ranks share the scene (docs/mpi.md): every rank loads it,
// each steps the bodies of its brick, and the first writes the outputs (gathered at their steps);
// the results are the same bits for any number of ranks.
// Exit codes: 0 done; 1 an I/O or other error while running (the message names the file and the
// system's reason, e.g. "No space left on device"); 2 bad input (scene file, command line,
// checkpoint, or a restart refused because the scene does not describe the checkpoint's system or an
// output file does not match the checkpoint's record of it); 3 runaway (dt above critical: the last good state is
// written); 4 an error of the simulation after its start (the last good state is written); 5 stopped by SIGINT or
// SIGTERM (a checkpoint of the last step is written; a second signal ends the process at once).

#include "io/checkpoint.hpp"
#include "io/clump_report.hpp"
#include "io/restart_check.hpp"
#include "io/runner.hpp"
#include "io/scene_loader.hpp"
#include "io/start_overlap.hpp"
#include "io/stop_signal.hpp"
#ifdef DEM_RUN_MPI
#include "mpi/distributed_scene.hpp"
#include "mpi/session.hpp"

#include <mpi.h>
#endif

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <system_error>

namespace {

constexpr int kExitError = 1, kExitInput = 2, kExitRunaway = 3, kExitSimulation = 4, kExitStopped = 5;

// The short usage line goes to stderr after a command-line error; --help prints it and the full text
// (every option, every exit code) to stdout.
void usage(bool full = false) {
  std::ostream& os = full ? std::cout : std::cerr;
  os << "usage: dem-run [--out DIR] [--steps N] [--restart CHECKPOINT] [--threads N] [--check] [--quiet] "
        "[--stage-times] SCENE.json\n";
  if (!full) return;
  os << "Runs the JSON scene file SCENE.json (schema: io/scene.schema.json, installed as share/dem/scene.schema.json;\n"
        "guide: docs/user-guide.md) and writes the outputs it asks for.\n"
        "options:\n"
        "  --out DIR        output directory (overrides outputs.directory; created when missing)\n"
        "  --steps N        run until step N (overrides engine.steps / engine.duration; engine.stop still holds;\n"
        "                   steps are counted from the scene's start, also after --restart)\n"
        "  --restart FILE   resume from a checkpoint written by dem-run (restart.ckpt, final.ckpt, last-good.ckpt);\n"
        "                   the scene file must describe the same system (bodies, materials, gravity, law, cell,\n"
        "                   the CSV's columns and the outputs' names; a difference is refused, exit 2); dt,\n"
        "                   damping, the last step and the output intervals are taken from it; the outputs are\n"
        "                   checked against the checkpoint and cut back to its step\n"
        "  --threads N      OpenMP threads, 1 to 1024 (overrides engine.threads; results are the same bits for any N)\n"
        "  --check          load and check the scene, print a summary (bodies, dt - the estimate for dt from\n"
        "                   the global stiffness -, the step count it implies, stop conditions), run nothing\n"
        "  --quiet          only warnings and errors on stderr (no progress bar, size-distribution report\n"
        "                   or final line)\n"
        "  --stage-times    at the end, on stderr: the wall-clock time per step of each stage of the step\n"
        "                   (fields, collider, contacts, integrator) and of the rest of the run (outputs,\n"
        "                   checks, copies of the last good state)\n"
        "  -h, --help       this text\n"
        "exit codes:\n"
        "  0  done (or --check: the scene is valid; --help)\n"
        "  1  I/O or other error while running (the message names the file and the system's reason,\n"
        "     e.g. \"No space left on device\")\n"
        "  2  bad input: scene file (the message names the file, the JSON path and what was expected),\n"
        "     command line, checkpoint, or a restart refused because the scene file does not describe the\n"
        "     checkpoint's system or an output file does not match the checkpoint's record of it\n"
        "  3  runaway: dt above critical or a non-finite state (the message names the step, the particle, dt\n"
        "     and the estimated critical dt; the last good state is written to last-good.ckpt)\n"
        "  4  error of the simulation after its start, not of the input (e.g. a body's box spanning half the\n"
        "     periodic cell): the message names the step and time; the last good state is in last-good.ckpt\n"
        "  5  stopped by SIGINT or SIGTERM: the step in progress is finished, a checkpoint of it is written\n"
        "     (outputs.checkpoint.file, when the scene asks for checkpoints) and the outputs are flushed and\n"
        "     closed; --restart from it continues as if uninterrupted. A second signal ends the process at\n"
        "     once (exit status 128 + the signal's number)\n"
        "  Errors 1 and 4 after the start also write the last good state to last-good.ckpt when they can;\n"
        "  running out of memory at any stage is exit 1 with the message \"out of memory\".\n";
}

// --stage-times: each stage's wall-clock time per step, and the run's time outside the steps.
void printStageTimes(const dem::StageTimes& t, std::chrono::steady_clock::duration run) {
  if (!t.steps) {
    std::fputs("dem-run: stage times: no step was timed\n", stderr);
    return;
  }
  const double us = 1e6 / static_cast<double>(t.steps);
  const double rest = std::chrono::duration<double>(run).count() - t.total();
  std::fprintf(stderr,
               "dem-run: stage times over %llu steps, microseconds per step: fields %.1f, collider %.1f, contacts "
               "%.1f, integrator %.1f; step %.1f; outside the steps (outputs, checks, last good state) %.1f\n",
               static_cast<unsigned long long>(t.steps), t.fields * us, t.collider * us, t.contacts * us,
               t.integrator * us, t.total() * us, rest * us);
}

bool parseCount(const char* s, std::uint64_t& v) {
  const char* end = s + std::strlen(s);
  const auto r = std::from_chars(s, end, v);
  return r.ec == std::errc() && r.ptr == end;
}

// The automatic timestep of the loaded scene: safety x the global-stiffness estimate with the
// contacts of the initial positions, as the first step evaluates it.
double estimatedDt(const dem::Scene& scene) {
  dem::Scene copy = scene;
  if (copy.particles.size() > 1) copy.updateCollider();
  return copy.dtSafety() * copy.criticalTimestep().dt;
}

// --check: the bodies, dt (estimated for the automatic timestep), the step count, the stop conditions.
std::string checkSummary(const dem::Scene& scene, const dem::io::RunSpec& spec) {
  std::ostringstream s;
  s.precision(6);
  s << scene.particles.size() << " bodies, ";
  const dem::io::StopSpec& stop = spec.stop;
  if (scene.dtSafety() > 0.0) {
    const double dt = estimatedDt(scene);
    s << "dt = " << dt << " s (" << scene.dtSafety() << " x the global-stiffness estimate at the start";
    if (scene.dtInterval() > 0) s << ", re-evaluated every " << scene.dtInterval() << " steps";
    s << ")";
    if (spec.duration)
      s << ", duration " << *spec.duration << " s: about " << std::ceil((*spec.duration - scene.time) / dt - 1e-9)
        << " steps at that dt";
    else if (spec.steps < dem::io::kMaxRunSteps) s << ", " << spec.steps << " steps";
  } else if (spec.steps < dem::io::kMaxRunSteps) {
    s << spec.steps << " steps of dt = " << scene.dt() << " s";
  } else {
    s << "dt = " << scene.dt() << " s, no step limit";
  }
  if (stop.time) s << "; stops at t = " << *stop.time << " s";
  if (stop.unbalancedForce || stop.kineticEnergy) {
    s << "; stops when";
    if (stop.unbalancedForce) s << " unbalanced force < " << *stop.unbalancedForce;
    if (stop.unbalancedForce && stop.kineticEnergy) s << " or";
    if (stop.kineticEnergy) s << " kinetic energy < " << *stop.kineticEnergy << " J";
    s << " (checked every " << stop.interval << " steps)";
  }
  return s.str();
}
int run(int argc, char** argv);

#ifdef DEM_RUN_MPI
using MpiSession = dem::mpi::Session;  // (finalised at the end of main)
MpiSession* mpiSession = nullptr;
#endif

}  // namespace

// Memory exhaustion or any other exception at any stage: a message and exit 1, never an abort.
// OpenMP threads wait for each other at every parallel region. libgomp spins 300000 times before it
// sleeps, which on a machine whose cores are busy with other work slows a run of 2 threads 2.9x
// (against 1.5x with 10000 spins; 1e4 spheres in a periodic cell, both cores busy; unchanged on an
// idle machine). libgomp reads its settings when it is loaded, so dem-run sets GOMP_SPINCOUNT=10000
// and starts itself again (same process, same arguments) unless the user set GOMP_SPINCOUNT or
// OMP_WAIT_POLICY, or asked for the threads to be bound to places (OMP_PROC_BIND, GOMP_CPU_AFFINITY):
// libgomp has bound this thread to the first place when it loaded, and the program started again
// would inherit that binding and put every thread on the first place's cores (with
// OMP_PROC_BIND=true, two threads on one core: 1.5x the time of their own cores).
static void setSpinCount(char** argv) {
  if (std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY")) return;
#ifdef _OPENMP
  if (omp_get_proc_bind() != omp_proc_bind_false) return;
#endif
  if (setenv("GOMP_SPINCOUNT", "10000", 0) != 0) return;
  execv("/proc/self/exe", argv);  // (returns only on failure: then the run goes on as it is)
}

// dem-run links no MPI (Open MPI's libraries, loaded, held 1.7 MB of every run's memory, MPI or
// not: 7.1 MB against 5.4 MB on a one-sphere scene): started by mpirun (Open MPI sets
// OMPI_COMM_WORLD_SIZE), it runs the same program built with MPI, DEM_RUN_MPI_PROGRAM, from its
// own directory, with the same arguments.
#ifdef DEM_RUN_MPI_PROGRAM
static void runWithMpi(char** argv) {
  if (!std::getenv("OMPI_COMM_WORLD_SIZE")) return;
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || !self.is_absolute()) {  // (never a program of that name from the working directory)
    std::fprintf(stderr, "dem-run: error: started by mpirun, but its own path (/proc/self/exe) is unknown: %s\n",
                 ec ? ec.message().c_str() : self.c_str());
    std::exit(kExitError);
  }
  const std::filesystem::path program = self.parent_path() / DEM_RUN_MPI_PROGRAM;
  execv(program.c_str(), argv);  // (returns only on failure)
  std::fprintf(stderr, "dem-run: error: started by mpirun, but %s could not be run: %s\n", program.c_str(),
               std::strerror(errno));
  std::exit(kExitError);
}
#endif

// The particles' arrays (a few hundred kB each at 10^4 bodies) from the heap, not each from its own
// mapping: mapped arrays all start at the same place within a page, and the contact stage's and
// the integrator's accesses to pos[i], vel[i], force[i] of one body then collide in the core's
// caches (measured: 10^4 spheres, one thread, 1.32-1.34 ms per step with the arrays mapped against
// 1.14-1.22 ms from the heap; docs/performance.md). The column buffer maps its own pages.
// The heap's free top is kept, not returned to the system (M_TRIM_THRESHOLD): on this kind of
// virtual machine a page's first touch costs about 15 us (docs/performance.md, dynamic scenes), and
// the memory a collider run or a growing contact store frees was touched again at the next run.
// Peak memory is unchanged (what is kept was in use before).
static void particleArraysFromTheHeap() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

// The cores that `threads` threads may run on: the union of their CPU affinity masks, each taken by
// its thread in a parallel region of that size (a thread bound to a place holds that place's cores
// alone); 0 where it is unknown.
static int coresForThreads(int threads) {
#if defined(_OPENMP) && defined(__linux__)
  cpu_set_t all;
  CPU_ZERO(&all);
  bool known = true;
#pragma omp parallel num_threads(threads)
  {
    cpu_set_t mine;
    CPU_ZERO(&mine);
    const bool got = sched_getaffinity(0, sizeof(mine), &mine) == 0;
#pragma omp critical
    {
      known = known && got;
      CPU_OR(&all, &all, &mine);
    }
  }
  return known ? CPU_COUNT(&all) : 0;
#else
  (void)threads;
  return 0;
#endif
}

int main(int argc, char** argv) {
#ifdef DEM_RUN_MPI_PROGRAM
  runWithMpi(argv);
#endif
  setSpinCount(argv);
  particleArraysFromTheHeap();
#ifdef DEM_RUN_MPI
  MpiSession mpi(argc, argv);
  mpiSession = &mpi;
  if (mpi.active) {
    // (a rank that ends with an error ends them all: the others may be waiting for it)
    int code = kExitError;
    try {
      code = run(argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dem-run: error: %s\n", e.what());
    }
    if (code != 0) mpi.abort(code);
    return 0;
  }
#endif
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("dem-run: error: out of memory (std::bad_alloc)\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dem-run: error: %s\n", e.what());
  } catch (...) {
    std::fputs("dem-run: error: unknown exception\n", stderr);
  }
  return kExitError;
}

namespace {

int run(int argc, char** argv) {
  std::string scenePath, outDir, restart;
  std::uint64_t steps = 0, threads = 0;
  bool haveSteps = false, check = false, quiet = false, stageTimes = false;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    const auto value = [&](const char* what) -> const char* {
      if (k + 1 >= argc) {
        std::cerr << "dem-run: " << a << " needs " << what << "\n";
        usage();
        std::exit(kExitInput);
      }
      return argv[++k];
    };
    if (a == "--out") outDir = value("a directory");
    else if (a == "--restart") restart = value("a checkpoint file");
    else if (a == "--steps" || a == "--threads") {
      const char* v = value("a number");
      std::uint64_t& target = a == "--steps" ? steps : threads;
      if (!parseCount(v, target) || (a == "--threads" && (threads < 1 || threads > 1024))) {
        std::cerr << "dem-run: " << a << " " << v << ": expected a non-negative integer"
                  << (a == "--threads" ? " in [1, 1024]" : "") << "\n";
        return kExitInput;
      }
      haveSteps = haveSteps || a == "--steps";
    } else if (a == "--check") check = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--stage-times") stageTimes = true;
    else if (a == "-h" || a == "--help") {
      usage(true);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "dem-run: unknown option " << a << "\n";
      usage();
      return kExitInput;
    } else if (scenePath.empty()) scenePath = a;
    else {
      std::cerr << "dem-run: more than one scene file given\n";
      usage();
      return kExitInput;
    }
  }
  if (scenePath.empty()) {
    usage();
    return kExitInput;
  }

  dem::io::LoadedScene loaded;
  dem::io::CheckpointInfo restartInfo;
  try {
    loaded = dem::io::loadSceneFile(scenePath);
    if (restart.empty())
      if (const dem::io::StartOverlap ov = dem::io::startOverlap(loaded.scene); ov.pairs)
        std::cerr << "dem-run: warning: " << scenePath << ": " << dem::io::formatStartOverlap(ov) << "\n";
    if (!restart.empty()) {
      dem::Scene resumed = dem::io::loadCheckpoint(restart, &restartInfo);
      dem::io::checkRestartScene(loaded.scene, resumed, scenePath, restart);
      for (const std::string& note : dem::io::applyRestartChanges(loaded.scene, resumed))
        std::cerr << "dem-run: note: restart: " << note << "\n";
      loaded.scene = std::move(resumed);
    }
  } catch (const dem::io::SceneError& e) {
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const dem::io::CheckpointError& e) {
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dem-run: error: " << scenePath << ": " << e.what() << "\n";
    return kExitInput;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dem-run: error: out of memory while loading %s\n",
                 restart.empty() || loaded.scene.particles.size() == 0 ? scenePath.c_str() : restart.c_str());
    return kExitError;
  }
#if defined(__GLIBC__)
  // The scene file's text and JSON document (many small blocks, freed by now) go back to the system
  // instead of staying in the heap under the contact columns built at the first step.
  malloc_trim(0);
#endif
  if (!quiet) {
    for (const dem::io::PackingReport& r : loaded.packings) std::cerr << formatPackingReport(r);
    if (restart.empty()) std::cerr << dem::io::formatClumpReport(loaded.scene);
  }
  dem::io::RunSpec& spec = loaded.run;
  for (const std::size_t id : spec.outputs.csv.particles)
    if (id >= loaded.scene.particles.size()) {
      std::cerr << "dem-run: error: " << restart << ": has " << loaded.scene.particles.size()
                << " bodies; outputs.csv.particles of " << scenePath << " names particle " << id << "\n";
      return kExitInput;
    }
  if (haveSteps) {
    spec.steps = steps;
    spec.duration.reset();
  }
  if (threads) spec.threads = static_cast<int>(threads);
  if (!outDir.empty()) spec.outputs.directory = outDir;
  if (quiet) spec.outputs.progress = false;
#ifdef _OPENMP
  // more threads than the cores they may use: each core runs several in turn, and every parallel
  // region waits for the one that is not running (a process limited by taskset or a batch system)
  if (const int team = spec.threads > 0 ? spec.threads : omp_get_max_threads(); team > 1 && !check) {
    const int cores = coresForThreads(team);
    if (cores > 0 && cores < team)
      std::cerr << "dem-run: warning: the run's " << team << " threads may use only " << cores
                << (cores == 1 ? " core" : " cores")
                << " (this process's CPU affinity): they take turns on it, slower than fewer threads\n";
  }
#endif
  if (check) {
    try {
      std::cout << scenePath << ": ok (" << checkSummary(loaded.scene, spec) << ")\n";
    } catch (const std::invalid_argument& e) {
      std::cerr << "dem-run: error: " << e.what() << "\n";
      return kExitInput;
    }
    return 0;
  }

  try {
    std::filesystem::create_directories(spec.outputs.directory);
    dem::io::RunOptions options;
    options.resumed = !restart.empty();
    options.resumeOutputs = restartInfo.outputs;
    options.checkpointName = restart;
    dem::io::installStopHandlers();
    options.stop = &dem::io::stopSignal();
    if (options.resumed && !restartInfo.outputs)
      std::cerr << "dem-run: warning: " << restart << ": checkpoint format version " << restartInfo.version
                << " records no output offsets; the outputs are appended to as they are on disk (rows or snapshots "
                   "the interrupted run wrote after the checkpoint stay in them)\n";
#ifdef DEM_RUN_MPI
    // Under mpirun: loaded.scene stays the whole scene as the outputs read it (gathered at their
    // steps: io/runner.hpp, RunOptions::step), the ranks' DistributedScene steps it; a stop request
    // holds once every rank has seen it (the same step on all).
    std::optional<dem::mpi::DistributedScene> shared;
    std::atomic<int> agreedStop{0};
    if (mpiSession && mpiSession->active) {
      shared.emplace(loaded.scene, MPI_COMM_WORLD);
      options.writes = mpiSession->rank == 0;
      if (!options.writes) {  // (the first rank alone gathers the whole scene and reads it)
        loaded.scene.particles = dem::Particles{};
        loaded.scene.contacts = dem::ContactStore{};
      }
      options.stop = &agreedStop;
      // the whole scene on the first rank; on the others the step count, the time and the ledger
      const auto gather = [&](dem::Scene& scene) {
        if (options.writes) {
          scene.particles = dem::Particles{};  // (the old copy's bodies gone before the new one's come)
          scene.contacts = dem::ContactStore{};
        }
        std::optional<dem::Scene> whole = shared->gatherSceneOn(0);
        if (whole) scene = std::move(*whole);
      };
      options.step = [&, gather](dem::Scene& scene, bool whole) {
        shared->step();
        int stop = dem::io::stopSignal().load();
        MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        agreedStop = stop;
        if (whole || stop) gather(scene);
        if (!options.writes || !(whole || stop)) {
          scene.stepCount = shared->local().stepCount;
          scene.time = shared->local().time;
          scene.energy = shared->local().energy;
        }
      };
      options.gather = gather;
      options.shareStop = [](bool mine) {
        int decided = mine ? 1 : 0;
        MPI_Bcast(&decided, 1, MPI_INT, 0, MPI_COMM_WORLD);
        return decided != 0;
      };
      if (!options.writes) quiet = true;
    }
#endif
    loaded.scene.setStageTiming(stageTimes);
    options.contactResultsAfter = false;  // (nothing below reads the contacts)
    const auto started = std::chrono::steady_clock::now();
    const dem::io::RunOutcome r = dem::io::runScene(loaded.scene, spec, options);
    if (stageTimes) printStageTimes(loaded.scene.stageTimes(), std::chrono::steady_clock::now() - started);
    if (r.runaway) {
      const dem::RunawayError& e = *r.runaway;
      std::fprintf(stderr,
                   "dem-run: runaway at step %llu (t = %.9g s): %s\n"
                   "  particle %zu; dt = %.6g s, estimated critical dt = %.6g s (dt / dt_crit = %.3g)\n"
                   "  the last good state (step %llu) is in %s; to go on with a smaller dt, lower engine.dt in\n"
                   "  the scene file and run: dem-run --restart %s %s\n",
                   static_cast<unsigned long long>(e.step), loaded.scene.energy.time, e.what(), e.particle, e.dt,
                   e.dtCritical, e.dt / e.dtCritical, static_cast<unsigned long long>(r.lastGoodStep),
                   r.lastGoodPath.c_str(), r.lastGoodPath.c_str(), scenePath.c_str());
      return kExitRunaway;
    }
    if (r.stopSignal) {
      std::fprintf(
          stderr, "dem-run: stopped by %s at step %llu (t = %.9g s); the outputs are flushed and closed; %s%s\n",
          strsignal(r.stopSignal), static_cast<unsigned long long>(loaded.scene.stepCount), loaded.scene.time,
          r.stopCheckpoint.empty() ? "no checkpoint is configured (outputs.checkpoint)" : "resume with --restart ",
          r.stopCheckpoint.c_str());
      return kExitStopped;
    }
    const std::string stopped = r.stopReason.empty() ? "" : "; stopped: " + r.stopReason;
    if (!quiet)
      std::fprintf(stderr, "dem-run: %llu steps done (step %llu, t = %.9g s)%s%s%s\n",
                   static_cast<unsigned long long>(r.steps), static_cast<unsigned long long>(loaded.scene.stepCount),
                   loaded.scene.time, stopped.c_str(), r.finalPath.empty() ? "" : "; final state ",
                   r.finalPath.c_str());
  } catch (const dem::io::RunError& e) {
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return e.kind == dem::io::RunError::Kind::Solver ? kExitSimulation : kExitError;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const dem::io::CheckpointError& e) {  // an output does not match the checkpoint: refused
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::bad_alloc&) {
    std::fputs("dem-run: error: out of memory (std::bad_alloc) while running\n", stderr);
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "dem-run: error: " << e.what() << "\n";
    return kExitError;
  }
  return 0;
}

}  // namespace
