// Vocabulary-parallel greedy decoding: the (batch, vocab) logits of one step are split by
// columns over the ranks, and every rank needs each row's argmax (the next token ids).
// Times argx's distributed argmax against the all-gather-then-argmax frameworks do, per
// step (the slowest rank's time, median over many steps), and the bytes each rank hands to
// and gets from the collectives. Both methods' tokens are compared every case.
//
//   mpirun -np P vocab_bench [--engine mpi|nccl] [--local tbb|par|seq|cuda] [--batches 1,8,64,256]
//          [--vocabs 128256,152064] [--dtypes bf16,f32] [--min-time 0.3] [--csv OUT.csv] [--label TEXT]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <argx/argx.hpp>
#include <argx/detail/splitmix64.hpp>
#include <argx/shard.hpp>

#include "methods.hpp"

namespace {

using argx_bench::method;
using argx_bench::step_shape;

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const auto comma = s.find(',', at);
    out.push_back(s.substr(at, comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

// Logit (row, col) of the whole matrix: a hash mapped to [-8, 8), the same on every rank.
float logit(std::int64_t row, std::int64_t col) {
  argx::detail::splitmix64 hash(static_cast<std::uint64_t>(row) << 32 | static_cast<std::uint64_t>(col));
  return static_cast<float>(hash.next() >> 40) * (16.0f / 16777216.0f) - 8.0f;
}

std::vector<unsigned char> local_logits(const step_shape& s) {
  const std::int64_t width = s.end - s.begin;
  const std::size_t elem = argx::size_of(s.type);
  std::vector<unsigned char> out(static_cast<std::size_t>(s.batch * width) * elem);
  for (std::int64_t r = 0; r < s.batch; ++r)
    for (std::int64_t c = 0; c < width; ++c) {
      const float v = logit(r, s.begin + c);
      std::uint32_t bits;
      std::memcpy(&bits, &v, 4);
      unsigned char* at = out.data() + static_cast<std::size_t>(r * width + c) * elem;
      if (s.type == argx::dtype::bf16) {
        const auto half = static_cast<std::uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);  // nearest even
        std::memcpy(at, &half, 2);
      } else {
        std::memcpy(at, &bits, 4);
      }
    }
  return out;
}

struct timing {
  double median_us = 0, min_us = 0;
  int iterations = 0;
};

// Steps until `min_time` seconds and 10 steps have passed; every step's time is the
// slowest rank's (so every rank stops together).
timing time_steps(method& m, MPI_Comm comm, double min_time) {
  for (int i = 0; i < 3; ++i) m.step();  // warm-up: allocations, caches, first-call setup
  std::vector<double> times;
  double total = 0;
  while (times.size() < 10 || (total < min_time && times.size() < 5000)) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    m.step();
    const double mine = MPI_Wtime() - t0;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    times.push_back(slowest);
    total += slowest;
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2] * 1e6, times.front() * 1e6, static_cast<int>(times.size())};
}

}  // namespace

int run(int argc, char** argv) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::string engine = "mpi", local = argx::available(argx::backend::tbb) ? "tbb" : "par";
  std::string batches = "1,8,64,256", vocabs = "128256,152064", dtypes = "bf16,f32", csv, label = "";
  double min_time = 0.3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    std::string* text = k == "--engine" ? &engine : k == "--local" ? &local : k == "--batches" ? &batches
                      : k == "--vocabs"  ? &vocabs : k == "--dtypes" ? &dtypes : k == "--csv" ? &csv
                      : k == "--label"   ? &label : nullptr;
    if (text) *text = v;
    else if (k == "--min-time") min_time = std::stod(v);
    else throw std::invalid_argument("unknown option " + k);
  }
  const auto backend = argx::parse_backend(local);
  if (!backend || !argx::available(*backend)) throw std::invalid_argument("--local " + local + ": not usable here");
  if (engine == "nccl") {
    if (!argx_bench::nccl_built()) throw std::invalid_argument("--engine nccl: this benchmark was built without NCCL");
    if (!argx::available(argx::backend::cuda)) throw std::invalid_argument("--engine nccl: no usable GPU");
    local = "cuda";
  } else if (engine != "mpi") {
    throw std::invalid_argument("--engine " + engine + ": mpi or nccl");
  }

  std::ofstream out;
  if (rank == 0 && !csv.empty()) {
    out.open(csv);
    out << "label,engine,local,ranks,dtype,batch,vocab,method,sent_bytes,received_bytes,median_us,min_us,iterations\n";
  }
  if (rank == 0)
    std::printf("%-6s %-5s %5s %5s %7s %-10s %12s %12s %11s %11s\n", "engine", "dtype", "ranks", "batch", "vocab",
                "method", "sent B", "received B", "median us", "min us");
  int mismatches = 0;
  for (const auto& t : split_list(dtypes))
    for (const auto& v : split_list(vocabs))
      for (const auto& b : split_list(batches)) {
        step_shape s;
        s.type = *argx::parse_dtype(t);
        s.vocab = std::stoll(v);
        s.batch = std::stoll(b);
        std::tie(s.begin, s.end) = argx::even_split(s.vocab, size, rank);
        const auto logits = local_logits(s);
        std::unique_ptr<method> methods[2];
        const char* names[2] = {"argx", "allgather"};
        if (engine == "nccl") {
          methods[0] = argx_bench::argx_nccl(comm);
          methods[1] = argx_bench::allgather_nccl(comm);
        } else {
          methods[0] = argx_bench::argx_mpi(comm, *backend);
          methods[1] = argx_bench::allgather_mpi(comm, *backend);
        }
        for (int k = 0; k < 2; ++k) {
          methods[k]->prepare(s, logits);
          const timing tm = time_steps(*methods[k], comm, min_time);
          if (rank != 0) continue;
          std::printf("%-6s %-5s %5d %5lld %7lld %-10s %12lld %12lld %11.1f %11.1f\n", engine.c_str(), t.c_str(), size,
                      static_cast<long long>(s.batch), static_cast<long long>(s.vocab), names[k],
                      static_cast<long long>(methods[k]->bytes_sent()),
                      static_cast<long long>(methods[k]->bytes_received()), tm.median_us, tm.min_us);
          if (out)
            out << label << ',' << engine << ',' << local << ',' << size << ',' << t << ',' << s.batch << ',' << s.vocab
                << ',' << names[k] << ',' << methods[k]->bytes_sent() << ',' << methods[k]->bytes_received() << ','
                << tm.median_us << ',' << tm.min_us << ',' << tm.iterations << '\n';
        }
        int differ = methods[0]->tokens() != methods[1]->tokens();
        MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_MAX, comm);
        if (differ && rank == 0) std::printf("MISMATCH: argx and allgather disagree on the tokens\n");
        mismatches += differ;
      }
  std::fflush(stdout);
  return mismatches ? 1 : 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 2;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vocab_bench: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);  // the other ranks may be waiting in a collective
  }
  MPI_Finalize();
  return status;
}
