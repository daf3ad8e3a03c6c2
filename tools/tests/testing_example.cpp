// The README example of argx/testing.hpp: check a hand-written row-wise argmax against
// argx. Built and run as a test, so the README cannot drift from the API.
#include <argx/testing.hpp>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <span>
#include <vector>

// The implementation under test: argmax of each row, NaN wins (numpy's rule), first of ties.
std::vector<std::int64_t> my_row_argmax(const std::vector<float>& x, std::int64_t rows, std::int64_t cols) {
  std::vector<std::int64_t> out(rows);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t best = 0;
    for (std::int64_t c = 1; c < cols; ++c) {
      const float v = x[r * cols + c], b = x[r * cols + best];
      if (std::isnan(b)) break;
      if (std::isnan(v) || v > b) best = c;
    }
    out[r] = best;
  }
  return out;
}

int main() {
  const std::int64_t rows = 3, cols = 4;
  const std::vector<float> x = {1, 7, 7, 2,  -0.0f, 0.0f, NAN, 5,  -1, -3, -1, -2};
  const std::vector<std::int64_t> mine = my_row_argmax(x, rows, cols);

  const argx::testing::report r =
      argx::testing::compare(argx::make_view(x, {rows, cols}), argx::op::argmax, {.dims = {1}}, std::span(mine));
  std::cout << r.to_string() << "\n";  // argx::testing: all 3 outputs agree (indices)
  return r ? 0 : 1;
}
