// The hand-written vectors of docs/DESIGN.md §6: NaN, infinities, signed zeros and ties in
// short slices, for every floating dtype (and every dtype where NaN plays no part).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

constexpr double nan_ = NAN;
constexpr double inf = INFINITY;

argx::spec with_nan(argx::nan_policy n, argx::tie_break t = argx::tie_break::first) {
  argx::spec s;
  s.nan = n;
  s.ties = t;
  return s;
}
const argx::spec propagate = with_nan(argx::nan_policy::propagate);
const argx::spec ignore = with_nan(argx::nan_policy::ignore);

// One row and the four answers: argmax/argmin under propagate, then under ignore.
struct nan_vector {
  std::vector<double> values;
  std::int64_t max_propagate, min_propagate, max_ignore, min_ignore;
};

std::string show(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

}  // namespace

TEST_CASE("vectors: NaN and infinities (docs/DESIGN.md §6)") {
  const std::vector<nan_vector> cases = {
      {{3, nan_, 1, 5}, 1, 1, 3, 2},
      {{nan_, 1, 2}, 0, 0, 2, 1},
      {{1, 2, nan_}, 2, 2, 1, 0},
      {{inf, nan_, -inf}, 1, 1, 0, 2},
      {{-1, -2, nan_}, 2, 2, 0, 1},
      {{-inf}, 0, 0, 0, 0},
      {{inf, inf}, 0, 0, 0, 0},
      {{-inf, -inf, -inf}, 0, 0, 0, 0},
      {{-inf, inf, 0}, 1, 0, 1, 0},
      {{nan_, nan_, 4, nan_, 4}, 0, 0, 2, 2},
      // A NaN with its sign bit set is still a NaN: it is not below -inf.
      {{1, -nan_, 2}, 1, 1, 2, 0},
      {{-inf, -nan_}, 1, 1, 0, 0},
      {{-nan_, nan_, 7}, 0, 0, 2, 2},
  };
  for (dtype t : float_dtypes()) {
    for (const auto& c : cases) {
      INFO(name_of(t), " ", show(c.values));
      const host_tensor x = make_tensor(t, c.values);
      CHECK(argmax(x, propagate).indices.at(0) == c.max_propagate);
      CHECK(argmin(x, propagate).indices.at(0) == c.min_propagate);
      CHECK(argmax(x, ignore).indices.at(0) == c.max_ignore);
      CHECK(argmin(x, ignore).indices.at(0) == c.min_ignore);
    }
  }
}

TEST_CASE("vectors: all-NaN slices") {
  for (dtype t : float_dtypes()) {
    INFO(name_of(t));
    // Four different NaNs so the returned bits show which one won.
    const std::vector<std::uint64_t> nans = {nan_bits(t, false, 1), nan_bits(t, true, 2), nan_bits(t, false, 3, false),
                                             nan_bits(t, true, 4, false)};
    const host_tensor x = make_tensor_bits(t, nans);
    for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
      // propagate: the first NaN (the last with ties = last).
      auto r = run(o, x, propagate);
      CHECK(r.indices[0] == 0);
      CHECK(r.value_bits[0] == nans[0]);
      r = run(o, x, with_nan(argx::nan_policy::propagate, argx::tie_break::last));
      CHECK(r.indices[0] == 3);
      CHECK(r.value_bits[0] == nans[3]);
      // ignore: index -1, and the value is the NaN the order picks.
      r = run(o, x, ignore);
      CHECK(r.indices[0] == -1);
      CHECK(r.value_bits[0] == nans[0]);
      r = run(o, x, with_nan(argx::nan_policy::ignore, argx::tie_break::last));
      CHECK(r.indices[0] == -1);
      CHECK(r.value_bits[0] == nans[3]);
    }
    // Every slice length around the small-size paths, all NaN.
    for (std::int64_t n : {1, 2, 31, 32, 33, 257}) {
      const host_tensor y = make_filled(t, nan_bits(t, true, 5), {n});
      CHECK(argmax(y, propagate).indices[0] == 0);
      CHECK(argmin(y, ignore).indices[0] == -1);
      CHECK(argmax(y, with_nan(argx::nan_policy::propagate, argx::tie_break::last)).indices[0] == n - 1);
    }
  }
}

TEST_CASE("vectors: -0.0 and +0.0 are equal") {
  for (dtype t : float_dtypes()) {
    INFO(name_of(t));
    const std::uint64_t neg = zero_bits(t, true), pos = zero_bits(t, false);
    for (const auto& bits : {std::vector<std::uint64_t>{neg, pos}, std::vector<std::uint64_t>{pos, neg}}) {
      const host_tensor x = make_tensor_bits(t, bits);
      for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
        auto r = run(o, x);
        CHECK(r.indices[0] == 0);
        CHECK(r.value_bits[0] == bits[0]);  // the element itself, sign included
        argx::spec last;
        last.ties = argx::tie_break::last;
        r = run(o, x, last);
        CHECK(r.indices[0] == 1);
        CHECK(r.value_bits[0] == bits[1]);
      }
    }
    // Zeros tie with each other and lose to the smallest subnormal.
    const host_tensor z = make_tensor_bits(t, {neg, pos, min_subnormal_bits(t), neg, min_subnormal_bits(t, true)});
    CHECK(argmax(z).indices[0] == 2);
    CHECK(argmin(z).indices[0] == 4);
  }
}

TEST_CASE("vectors: all-equal rows of length 1, 31, 32, 33, 1023, 4097") {
  for (dtype t : all_dtypes()) {
    const double v = t == dtype::boolean ? 1 : 7;
    for (std::int64_t n : {1, 31, 32, 33, 1023, 4097}) {
      INFO(name_of(t), " n=", n);
      const host_tensor row = make_filled(t, encode(t, v), {n});
      CHECK(argmax(row).indices[0] == 0);
      CHECK(argmin(row).indices[0] == 0);
      argx::spec last;
      last.ties = argx::tie_break::last;
      CHECK(argmax(row, last).indices[0] == n - 1);
      CHECK(argmin(row, last).indices[0] == n - 1);
      // The same rows inside a matrix, reduced along the last and the first dim.
      const host_tensor rows = make_filled(t, encode(t, v), {3, n});
      argx::spec along;
      along.dims = {1};
      CHECK(argmax(rows, along).indices == std::vector<std::int64_t>(3, 0));
      const host_tensor cols = make_filled(t, encode(t, v), {n, 3});
      along.dims = {0};
      along.ties = argx::tie_break::last;
      CHECK(argmin(cols, along).indices == std::vector<std::int64_t>(3, n - 1));
    }
  }
}

TEST_CASE("vectors: a slice of one element gives index 0") {
  for (dtype t : all_dtypes()) {
    INFO(name_of(t));
    const host_tensor x = make_tensor(t, {1, 0, 1, 0, 1, 1}, {3, 1, 2});
    argx::spec s;
    s.dims = {1};
    const auto r = argmax(x, s);
    CHECK(to_string(r.extents) == "(3,2)");
    CHECK(r.indices == std::vector<std::int64_t>(6, 0));
    s.keepdim = true;
    CHECK(to_string(argmin(x, s).extents) == "(3,1,2)");
  }
  const host_tensor nan1 = make_tensor(dtype::f32, {nan_});
  CHECK(argmax(nan1, ignore).indices[0] == -1);
  CHECK(argmax(nan1, propagate).indices[0] == 0);
}
