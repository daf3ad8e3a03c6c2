// What a failed command prints and returns (tools/cli/failure.hpp): usage errors exit 2,
// everything else exits 1 and prints as the argx::error it is or stands for, with its code.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include <argx/error.hpp>

#include "../cli/failure.hpp"
#include "../cli/options.hpp"

namespace {

struct printed {
  int status = 0;
  std::string text;  // what went to stderr
};

// report_failure for `failure`, with stderr caught in a temporary file.
printed report(const std::exception_ptr& failure, bool print = true) {
  std::FILE* caught = std::tmpfile();
  REQUIRE(caught != nullptr);
  std::fflush(stderr);
  const int saved = ::dup(2);
  REQUIRE(::dup2(::fileno(caught), 2) >= 0);
  printed p;
  try {
    std::rethrow_exception(failure);
  } catch (...) {
    p.status = argx::cli::report_failure("reduce", print);
  }
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::rewind(caught);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, caught)) p.text += buffer;
  std::fclose(caught);
  return p;
}

}  // namespace

TEST_CASE("report_failure: the status and the one line of each kind of failure") {
  printed p = report(std::make_exception_ptr(argx::cli::usage_error("missing -o OUT.npy")));
  CHECK(p.status == 2);
  CHECK(p.text == "argx reduce: missing -o OUT.npy (see argx reduce --help)\n");
  p = report(std::make_exception_ptr(argx::error(argx::errc::bad_dim, "dim 3 is out of range")));
  CHECK(p.status == 1);
  CHECK(p.text == "argx: dim 3 is out of range [bad_dim]\n");
  p = report(std::make_exception_ptr(std::bad_alloc()));
  CHECK(p.status == 1);
  CHECK(p.text == "argx: reduce: host memory is exhausted [out_of_memory]\n");
  p = report(std::make_exception_ptr(std::logic_error("boom")));  // not argx's: a bug, said so
  CHECK(p.status == 1);
  CHECK(p.text == "argx: reduce: unexpected boom [internal]\n");
  p = report(std::make_exception_ptr(42));
  CHECK(p.status == 1);
  CHECK(p.text == "argx: reduce: an unexpected exception of unknown type [internal]\n");
}

TEST_CASE("report_failure: a rank that does not print still returns the status") {
  const printed p = report(std::make_exception_ptr(argx::error(argx::errc::io_failure, "cannot read x.npy")), false);
  CHECK(p.status == 1);
  CHECK(p.text.empty());
  CHECK(report(std::make_exception_ptr(argx::cli::usage_error("bad")), false).status == 2);
}
