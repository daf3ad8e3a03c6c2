// The public device building blocks (argx/device/warp_argmax.cuh, block_argmax.cuh),
// driven from test kernels: every lane/thread must end with the winner that argx's order
// (argx::combine over order_key) gives, with positions that are not lane ids, for every
// group width, NaN policy, tie rule and abs; block folds also against argx::seq.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "device_blocks.hpp"
#include "element_bits.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::dtype;

namespace {

const std::vector<dtype> block_dtypes = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64,
                                         dtype::i8,  dtype::u64,  dtype::boolean};

std::uint64_t key_of(dtype t, std::uint64_t bits, argx::key_params kp) {
  switch (t) {
    case dtype::f16: return argx::order_key<dtype::f16>(static_cast<std::uint16_t>(bits), kp);
    case dtype::bf16: return argx::order_key<dtype::bf16>(static_cast<std::uint16_t>(bits), kp);
    case dtype::f32: return argx::order_key<dtype::f32>(static_cast<std::uint32_t>(bits), kp);
    case dtype::f64: return argx::order_key<dtype::f64>(bits, kp);
    case dtype::i8: return argx::order_key<dtype::i8>(static_cast<std::uint8_t>(bits), kp);
    case dtype::u64: return argx::order_key<dtype::u64>(bits, kp);
    default: return argx::order_key<dtype::boolean>(static_cast<std::uint8_t>(bits), kp);
  }
}

template <class F>
auto with_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::f16: return f(std::integral_constant<dtype, dtype::f16>{});
    case dtype::bf16: return f(std::integral_constant<dtype, dtype::bf16>{});
    case dtype::f32: return f(std::integral_constant<dtype, dtype::f32>{});
    case dtype::f64: return f(std::integral_constant<dtype, dtype::f64>{});
    case dtype::i8: return f(std::integral_constant<dtype, dtype::i8>{});
    case dtype::u64: return f(std::integral_constant<dtype, dtype::u64>{});
    default: return f(std::integral_constant<dtype, dtype::boolean>{});
  }
}

std::vector<std::uint64_t> random_bits(rng& r, dtype t, std::int64_t n) {
  const host_tensor x = random_tensor(r, t, {n});
  std::vector<std::uint64_t> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(load_bits(t, x.storage->data() + i * argx::size_of(t)));
  return out;
}

// Distinct positions in random order, far from lane ids (and past 2^32).
std::vector<std::int64_t> shuffled_positions(rng& r, std::size_t n) {
  std::vector<std::int64_t> p(n);
  std::iota(p.begin(), p.end(), (std::int64_t(1) << 32) - 7);
  for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[r.below(i)]);
  return p;
}

argx::key_params params(int v) { return argx::key_params{(v & 1) != 0, (v & 8) != 0, (v & 2) != 0}; }

}  // namespace

TEST_CASE("device blocks: warp_reduce over every group width, positions not lane ids") {
  rng r(11);
  for (dtype t : block_dtypes) {
    for (int width : {1, 2, 4, 8, 16, 32, -4, -32}) {  // negative: the run-time-width variant
      for (int v = 0; v < 16; v += 3) {
        const argx::key_params kp = params(v);
        const bool tl = (v & 4) != 0;
        const auto bits = random_bits(r, t, 128);
        const auto pos = shuffled_positions(r, 128);
        const auto got = with_dtype(t, [&](auto d) { return run_warp_reduce<decltype(d)::value>(bits, pos, width, kp, tl); });
        const int w = width < 0 ? -width : width;
        INFO(argx::name(t), " width ", width, " variant ", v);
        for (int g = 0; g < 128; g += w) {
          argx::candidate<std::uint64_t> best{key_of(t, bits[g], kp), pos[g]};
          for (int i = g + 1; i < g + w; ++i) best = argx::combine(best, {key_of(t, bits[i], kp), pos[i]}, tl);
          for (int i = g; i < g + w; ++i) {
            CHECK(got[i].key == best.key);
            CHECK(got[i].pos == best.pos);
          }
        }
      }
    }
  }
}

TEST_CASE("device blocks: warp_argmax carries the winning value; lanes without one never win") {
  rng r(12);
  for (dtype t : block_dtypes) {
    for (int v = 0; v < 16; ++v) {
      const argx::key_params kp = params(v);
      const bool tl = (v & 4) != 0;
      const auto bits = random_bits(r, t, 32);
      const auto pos = shuffled_positions(r, 32);
      std::vector<std::uint8_t> has(32);
      for (auto& h : has) h = v == 15 ? 0 : r.chance(0.6);  // variant 15: no lane has one
      const auto got = with_dtype(t, [&](auto d) { return run_warp_value<decltype(d)::value>(bits, pos, has, kp, tl); });
      INFO(argx::name(t), " variant ", v);
      int winner = -1;
      for (int i = 0; i < 32; ++i)
        if (has[i] && (winner < 0 || argx::beats(key_of(t, bits[i], kp), pos[i], key_of(t, bits[winner], kp), pos[winner], tl)))
          winner = i;
      for (int i = 0; i < 32; ++i) {
        CHECK(got[i].found == (winner >= 0));
        if (winner < 0) continue;
        CHECK(got[i].pos == pos[winner]);
        CHECK(got[i].value_bits == bits[winner]);
        CHECK(got[i].key == key_of(t, bits[winner], kp));
      }
    }
  }
}

TEST_CASE("device blocks: block_argmax matches argx::seq for any block size") {
  rng r(13);
  for (dtype t : block_dtypes) {
    for (int threads : {32, 96, 256, 1024}) {
      for (std::int64_t n : {1, 31, 32, 33, 1000, 4099}) {
        const int v = static_cast<int>(r.below(16));
        argx::spec s;
        s.nan = (v & 2) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
        s.ties = (v & 4) ? argx::tie_break::last : argx::tie_break::first;
        s.abs = (v & 8) != 0;
        const argx::key_params kp = params(v);
        const auto bits = random_bits(r, t, n);
        const auto got = with_dtype(t, [&](auto d) {
          return run_block_reduce<decltype(d)::value>(bits, threads, kp, s.ties == argx::tie_break::last);
        });
        const host_tensor x = make_tensor_bits(t, bits, {n});
        const argx::result want = (v & 1) ? argx::argmin(argx::seq, x.view, s) : argx::argmax(argx::seq, x.view, s);
        INFO(argx::name(t), " threads ", threads, " n ", n, " variant ", v);
        for (int i = 0; i < threads; ++i) {
          const argx::candidate<std::uint64_t> c{got[i].key, got[i].pos};
          CHECK(argx::reported_index(c, kp, argx::is_floating(t)) == want.indices[0]);
          CHECK(bits[static_cast<std::size_t>(c.pos)] == load_bits(t, want.values.data()));
        }
      }
    }
  }
}

TEST_CASE("device blocks: block_argmax_value over one optional element per thread") {
  rng r(14);
  for (dtype t : block_dtypes) {
    for (int threads : {64, 160, 1024}) {
      const int v = static_cast<int>(r.below(16));
      const argx::key_params kp = params(v);
      const bool tl = (v & 4) != 0;
      const auto bits = random_bits(r, t, threads);
      const auto pos = shuffled_positions(r, static_cast<std::size_t>(threads));
      std::vector<std::uint8_t> has(static_cast<std::size_t>(threads));
      for (auto& h : has) h = r.chance(0.3);
      const auto got = with_dtype(t, [&](auto d) { return run_block_value<decltype(d)::value>(bits, pos, has, kp, tl); });
      int winner = -1;
      for (int i = 0; i < threads; ++i)
        if (has[i] && (winner < 0 || argx::beats(key_of(t, bits[i], kp), pos[i], key_of(t, bits[winner], kp), pos[winner], tl)))
          winner = i;
      INFO(argx::name(t), " threads ", threads, " variant ", v);
      REQUIRE(winner >= 0);
      for (int i = 0; i < threads; ++i) {
        CHECK(got[i].found);
        CHECK(got[i].pos == pos[winner]);
        CHECK(got[i].value_bits == bits[winner]);
      }
    }
  }
}
