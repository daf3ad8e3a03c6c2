// A consumer of argx-nccl: it must compile and link against the installed library; without
// a communicator (and without a GPU) the call raises bad_argument.
#include <argx/nccl.hpp>

#include <cstdio>

int main() {
  const float x[3] = {1, 2, 3};
  std::int64_t index = -1;
  try {
    argx::argmax(argx::nccl(nullptr), argx::make_shard(argx::make_view(x, {3}), {3}, 0, 0),
                 argx::make_output(&index, {}));
  } catch (const argx::error& e) {
    std::printf("%s [%s]\n", e.what(), argx::to_string(e.code()));
    return e.code() == argx::errc::bad_argument ? 0 : 1;
  }
  return 1;
}
