// The MPI methods: argx::mpi, and the all-gather that frameworks do.
#include <argx/mpi.hpp>

#include <cstring>

#include "device_memory.hpp"
#include "methods.hpp"

namespace argx_bench {
namespace {

struct place {
  int rank = 0, size = 1;
  explicit place(MPI_Comm comm) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

bool on_gpu(argx::backend b) { return b == argx::backend::cuda || b == argx::backend::thrust; }

class argx_mpi_method final : public method {
 public:
  argx_mpi_method(MPI_Comm comm, argx::backend local) : comm_(comm), local_(local), where_(comm) {}
  void prepare(const step_shape& s, const std::vector<unsigned char>& logits) override {
    s_ = s;
    host_ = logits;
    const void* data = host_.data();
    auto space = argx::memory_space::host;
    if (on_gpu(local_)) {
      device_ = argx_test::device_buffer(logits.size());
      device_.upload(logits.data(), logits.size());
      data = device_.data();
      space = argx::memory_space::device;
    }
    const argx::shape local{s.batch, s.end - s.begin};
    shard_ = argx::make_shard(argx::make_view(data, s.type, local, argx::contiguous_strides(local), space),
                              {s.batch, s.vocab}, 1, s.begin);
    tokens_.assign(static_cast<std::size_t>(s.batch), -2);
  }
  void step() override {
    argx::argmax(argx::mpi(comm_, argx::policy{local_}), shard_, argx::make_output(tokens_.data(), {s_.batch}),
                 {.dims = {1}});
  }
  // (key, position word) per row in the MPI_Allreduce.
  std::int64_t bytes_sent() const override { return argx_bytes_sent(s_.batch, 16); }
  std::int64_t bytes_received() const override { return argx_bytes_received(where_.size, s_.batch, 16); }

 private:
  MPI_Comm comm_;
  argx::backend local_;
  place where_;
  step_shape s_;
  std::vector<unsigned char> host_;
  argx_test::device_buffer device_;
  argx::shard shard_;
};

class allgather_mpi_method final : public method {
 public:
  allgather_mpi_method(MPI_Comm comm, argx::backend local) : comm_(comm), local_(local), where_(comm) {}
  void prepare(const step_shape& s, const std::vector<unsigned char>& logits) override {
    s_ = s;
    elem_ = argx::size_of(s.type);
    mine_ = logits;
    if (on_gpu(local_)) {  // the logits start on the GPU, as the model left them
      device_mine_ = argx_test::device_buffer(logits.size());
      device_mine_.upload(logits.data(), logits.size());
      device_whole_ = argx_test::device_buffer(static_cast<std::size_t>(s.batch * s.vocab) * elem_);
    }
    counts_.assign(static_cast<std::size_t>(where_.size), 0);
    offsets_.assign(static_cast<std::size_t>(where_.size), 0);
    columns_.clear();
    int total = 0;
    for (int r = 0; r < where_.size; ++r) {
      const auto [b, e] = argx::even_split(s.vocab, where_.size, r);
      columns_.push_back({b, e});
      counts_[r] = static_cast<int>(s.batch * (e - b) * static_cast<std::int64_t>(elem_));
      offsets_[r] = total;
      total += counts_[r];
    }
    pieces_.resize(static_cast<std::size_t>(total));
    whole_.resize(static_cast<std::size_t>(total));
    tokens_.assign(static_cast<std::size_t>(s.batch), -2);
  }
  void step() override {
    if (on_gpu(local_)) device_mine_.download(mine_.data(), mine_.size());
    MPI_Allgatherv(mine_.data(), counts_[where_.rank], MPI_BYTE, pieces_.data(), counts_.data(), offsets_.data(),
                   MPI_BYTE, comm_);
    for (int r = 0; r < where_.size; ++r) {  // rank r's (batch, columns) block into its columns of each row
      const auto [b, e] = columns_[r];
      const std::size_t run = static_cast<std::size_t>(e - b) * elem_;
      for (std::int64_t row = 0; row < s_.batch; ++row)
        std::memcpy(whole_.data() + static_cast<std::size_t>(row * s_.vocab + b) * elem_,
                    pieces_.data() + offsets_[r] + static_cast<std::size_t>(row) * run, run);
    }
    const void* data = whole_.data();
    auto space = argx::memory_space::host;
    if (on_gpu(local_)) {
      device_whole_.upload(whole_.data(), whole_.size());
      data = device_whole_.data();
      space = argx::memory_space::device;
    }
    const argx::shape ext{s_.batch, s_.vocab};
    argx::argmax(argx::policy{local_}, argx::make_view(data, s_.type, ext, argx::contiguous_strides(ext), space),
                 argx::make_output(tokens_.data(), {s_.batch}), {.dims = {1}});
  }
  std::int64_t bytes_sent() const override { return counts_[where_.rank]; }
  std::int64_t bytes_received() const override {
    return static_cast<std::int64_t>(pieces_.size()) - counts_[where_.rank];
  }

 private:
  MPI_Comm comm_;
  argx::backend local_;
  place where_;
  step_shape s_;
  std::size_t elem_ = 4;
  std::vector<unsigned char> mine_, pieces_, whole_;
  argx_test::device_buffer device_mine_, device_whole_;
  std::vector<int> counts_, offsets_;
  std::vector<std::pair<std::int64_t, std::int64_t>> columns_;
};

}  // namespace

std::unique_ptr<method> argx_mpi(MPI_Comm comm, argx::backend local) {
  return std::make_unique<argx_mpi_method>(comm, local);
}
std::unique_ptr<method> allgather_mpi(MPI_Comm comm, argx::backend local) {
  return std::make_unique<allgather_mpi_method>(comm, local);
}

}  // namespace argx_bench
