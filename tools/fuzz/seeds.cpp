// Writes the seed corpora of the two fuzz targets: DIR/npy (valid .npy files of every
// dtype, version, order and byte order, plus the malformed catalogue) and DIR/plan
// (a few byte strings). usage: fuzz_seeds DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../tests/malformed_npy.hpp"
#include "npy.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds DIR\n");
    return 2;
  }
  const fs::path npy_dir = fs::path(argv[1]) / "npy", plan_dir = fs::path(argv[1]) / "plan";
  fs::create_directories(npy_dir);
  fs::create_directories(plan_dir);
  auto put = [](const fs::path& p, const void* data, std::size_t n) {
    std::ofstream(p, std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  };

  int count = 0;
  const argx::shape shapes[] = {{}, {0}, {5}, {2, 3}, {3, 0, 2}, {2, 1, 3}};
  for (int t = 0; t < argx::dtype_count; ++t) {
    const auto type = static_cast<argx::dtype>(t);
    for (const auto& ext : shapes) {
      std::int64_t n = 1;
      for (auto e : ext) n *= e;
      std::vector<unsigned char> data(static_cast<std::size_t>(n) * argx::size_of(type));
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 29 + 3 * t);
      const auto v = argx::make_view(data.data(), type, ext, argx::contiguous_strides(ext));
      for (int version = 1; version <= 3; ++version)
        for (bool fortran : {false, true})
          for (bool big : {false, true}) {
            if (big && type == argx::dtype::bf16) continue;
            const auto file = argx::npy::serialize(v, {.fortran_order = fortran, .big_endian = big, .version = version});
            put(npy_dir / ("valid-" + std::to_string(count++) + ".npy"), file.data(), file.size());
          }
    }
  }
  for (const auto& c : argx::npy::catalogue::malformed())
    put(npy_dir / ("bad-" + c.name + ".npy"), c.bytes.data(), c.bytes.size());

  // Plan seeds: byte strings from a fixed generator, long enough to fill a request.
  std::uint64_t h = 88172645463325252ull;
  for (int s = 0; s < 64; ++s) {
    std::vector<unsigned char> bytes(32 + 8 * s);
    for (auto& b : bytes) {
      h ^= h << 13;
      h ^= h >> 7;
      h ^= h << 17;
      b = static_cast<unsigned char>(h);
    }
    put(plan_dir / ("seed-" + std::to_string(s)), bytes.data(), bytes.size());
  }
  std::printf("fuzz_seeds: %d valid and %zu malformed .npy files, 64 plan seeds in %s\n", count,
              argx::npy::catalogue::malformed().size(), argv[1]);
  return 0;
}
