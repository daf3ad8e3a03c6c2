// argx: the command-line tool. `argx <command> [options]`; `argx <command> --help`.
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include <argx/version.hpp>

#include "commands.hpp"
#include "failure.hpp"

namespace {

constexpr const char* usage_text =
    "usage: argx <command> [options]\n"
    "\n"
    "commands:\n"
    "  info     version, backends built and usable here, GPUs\n"
    "  reduce   argmax/argmin of a .npy file into a .npy file\n"
    "  demo     a built-in tensor with ties and NaN on every usable backend\n"
    "  diff     one reduction on every backend, compared bit for bit\n"
    "  fuzz     random differential cases across backends\n"
    "\n"
    "`argx <command> --help` lists a command's options; `argx --version` prints the version.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace argx::cli;
  // A write past the file size limit (ulimit -f) fails with EFBIG and is reported, instead
  // of killing the process halfway through an output.
  std::signal(SIGXFSZ, SIG_IGN);
  if (argc < 2) {
    std::fputs(usage_text, stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(usage_text, stdout);
    return 0;
  }
  if (command == "--version" || command == "-V") {
    std::printf("argx %s\n", argx::version_string);
    return 0;
  }
  const args rest(argv + 2, argv + argc);
  try {
    if (command == "info") return info_command(rest);
    if (command == "reduce") return reduce_command(rest);
    if (command == "demo") return demo_command(rest);
    if (command == "diff") return diff_command(rest);
    if (command == "fuzz") return fuzz_command(rest);
    std::fprintf(stderr, "argx: unknown command '%s' (info, reduce, demo, diff, fuzz)\n", command.c_str());
    return 2;
  } catch (const std::exception&) {
    return report_failure(command);
  }
}
