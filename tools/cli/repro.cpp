#include "repro.hpp"

#include <filesystem>
#include <fstream>

#include "backend_list.hpp"
#include "npy.hpp"

namespace argx::cli {

std::string write_repro(const std::string& dir, const std::string& stem, const fuzz_case& c,
                        const std::vector<argx::backend>& backends, const std::string& note) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw error(errc::io_failure, "cannot create " + dir + ": " + ec.message());
  const std::string npy_path = (std::filesystem::path(dir) / (stem + ".npy")).string();
  const std::string sh_path = (std::filesystem::path(dir) / (stem + ".sh")).string();
  npy::write(npy_path, c.base_view(), {.fortran_order = c.fortran});

  std::string backend_names;
  for (argx::backend b : backends) {
    if (!backend_names.empty()) backend_names += ',';
    backend_names += name(b);
  }
  std::vector<std::string> rest;
  for (auto& w : c.reduction.to_args()) rest.push_back(std::move(w));
  rest.insert(rest.end(), {"--backends", backend_names});
  const std::string command = shell_join({"argx", "diff", npy_path}) + " " + shell_join(rest);

  // The script finds the .npy next to itself, wherever it is run from.
  std::ofstream sh(sh_path);
  sh << "#!/bin/sh\n# " << c.describe() << "\n# " << note << "\n"
     << "argx diff \"$(dirname \"$0\")/" << stem << ".npy\" " << shell_join(rest) << "\n";
  if (!sh) throw error(errc::io_failure, "cannot write " + sh_path);
  sh.close();
  std::filesystem::permissions(sh_path, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                               std::filesystem::perm_options::add, ec);
  return command;
}

}  // namespace argx::cli
