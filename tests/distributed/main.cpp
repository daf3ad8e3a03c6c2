// main() of the distributed test executables (one per engine), run under mpirun: starts
// MPI and the engine, runs the doctest cases on every rank (they are collective: every rank
// runs the same cases in the same order), and exits with the same status on every rank.
// A watchdog ends a run that hangs, so a collective that waits forever fails the test.
#include <mpi.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>

#include "engine.hpp"
#include "sharded.hpp"

namespace {

constexpr int exit_skipped = 77;
constexpr unsigned watchdog_seconds = 240;

extern "C" void on_watchdog(int) {
  const char text[] = "distributed test: no progress for the watchdog's time limit (a hang): aborting\n";
  [[maybe_unused]] const ssize_t written = write(2, text, sizeof text - 1);  // nothing to do if it fails
  _exit(124);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  argx_test::world w;
  MPI_Comm_rank(w.comm, &w.rank);
  MPI_Comm_size(w.comm, &w.size);
  argx_test::set_world(w);
  std::signal(SIGALRM, on_watchdog);
  alarm(watchdog_seconds);

  std::vector<std::string> engine_args;
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::string(argv[i]).rfind("--local=", 0) == 0)
      engine_args.push_back(argv[i]);
    else
      doctest_args.push_back(argv[i]);
  }
  if (const auto skip = argx_test::engine_start(engine_args)) {
    if (w.rank == 0) std::printf("skipped: %s\n", skip->c_str());
    MPI_Finalize();
    return exit_skipped;
  }
  if (w.rank == 0) std::printf("%s, %d rank(s)\n", argx_test::engine_name().c_str(), w.size);

  doctest::Context ctx(static_cast<int>(doctest_args.size()), doctest_args.data());
  if (w.rank != 0) {  // rank 0 reports; the others print failures only
    ctx.setOption("minimal", true);
    ctx.setOption("no-colors", true);
  }
  const int mine = ctx.run();
  int worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, w.comm);
  argx_test::engine_stop();
  MPI_Finalize();
  return worst;
}
