// read_sum with Highway's run-time dispatch when the build has Highway, else plain loops
// with independent accumulators (which compilers vectorise for the baseline ISA).
#include "read_ceiling.hpp"

#include <algorithm>
#include <cstring>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/partitioner.h>

#if ARGX_BENCH_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "read_ceiling.cpp"
#include <hwy/foreach_target.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

HWY_BEFORE_NAMESPACE();
namespace argx_bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::uint64_t sum_words(const std::uint64_t* HWY_RESTRICT p, std::size_t n) {
  const hn::ScalableTag<std::uint64_t> d;
  const std::size_t L = hn::Lanes(d);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  std::size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    s0 = hn::Add(s0, hn::LoadU(d, p + i));
    s1 = hn::Add(s1, hn::LoadU(d, p + i + L));
    s2 = hn::Add(s2, hn::LoadU(d, p + i + 2 * L));
    s3 = hn::Add(s3, hn::LoadU(d, p + i + 3 * L));
  }
  std::uint64_t s = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
  for (; i < n; ++i) s += p[i];
  return s;
}

const char* target_name() { return hwy::TargetName(HWY_TARGET); }

}  // namespace argx_bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif

#if !ARGX_BENCH_HWY || HWY_ONCE
namespace argx_bench {

#if ARGX_BENCH_HWY
HWY_EXPORT(sum_words);
HWY_EXPORT(target_name);
static std::uint64_t words(const std::uint64_t* p, std::size_t n) { return HWY_DYNAMIC_DISPATCH(sum_words)(p, n); }
const char* read_target() { return HWY_DYNAMIC_DISPATCH(target_name)(); }
#else
static std::uint64_t words(const std::uint64_t* p, std::size_t n) {
  std::uint64_t s[8] = {};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += p[i + k];
  for (; i < n; ++i) s[0] += p[i];
  return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}
const char* read_target() { return "plain"; }
#endif

std::uint64_t read_sum(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::size_t head = 0;  // bytes before the first 8-byte boundary
  while (head < n && (reinterpret_cast<std::uintptr_t>(b + head) % 8) != 0) ++head;
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < head; ++i) s += b[i];
  const std::size_t n_words = (n - head) / 8;
  s += words(reinterpret_cast<const std::uint64_t*>(b + head), n_words);
  for (std::size_t i = head + n_words * 8; i < n; ++i) s += b[i];
  return s;
}

std::uint64_t read_sum_threads(const void* p, std::size_t n, int threads) {
  if (threads <= 1) return read_sum(p, n);
  const auto* b = static_cast<const unsigned char*>(p);
  // One piece per thread (at least 64 KiB), placed once each by the static partitioner.
  const std::size_t piece = std::max<std::size_t>(std::size_t(64) << 10, n / static_cast<std::size_t>(threads) + 1);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, piece), std::uint64_t(0),
      [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t acc) {
        return acc + read_sum(b + r.begin(), r.end() - r.begin());
      },
      [](std::uint64_t x, std::uint64_t y) { return x + y; }, tbb::static_partitioner());
}

void write_words_threads(std::uint64_t* p, std::size_t n, int threads) {
  // Distinct values, so that the loop is not turned into memset (which may bypass the caches).
  auto fill = [p](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) p[i] = i;
  };
  if (threads <= 1) return fill(0, n);
  const std::size_t piece = std::max<std::size_t>(std::size_t(8) << 10, n / static_cast<std::size_t>(threads) + 1);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, piece),
                    [&](const tbb::blocked_range<std::size_t>& r) { fill(r.begin(), r.end()); }, tbb::static_partitioner());
}

void keep(std::uint64_t sum) {
  static volatile std::uint64_t sink;
  sink = sum;
}

}  // namespace argx_bench
#endif
