// A random-access iterator over consecutive integers, so the standard parallel
// algorithms can split an index range without materialising it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace argx::detail::cpu {

class counting_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::int64_t;
  using difference_type = std::int64_t;
  using pointer = const std::int64_t*;
  using reference = std::int64_t;

  counting_iterator() = default;
  explicit counting_iterator(std::int64_t v) : v_(v) {}
  reference operator*() const { return v_; }
  reference operator[](difference_type n) const { return v_ + n; }
  counting_iterator& operator++() { ++v_; return *this; }
  counting_iterator operator++(int) { auto t = *this; ++v_; return t; }
  counting_iterator& operator--() { --v_; return *this; }
  counting_iterator operator--(int) { auto t = *this; --v_; return t; }
  counting_iterator& operator+=(difference_type n) { v_ += n; return *this; }
  counting_iterator& operator-=(difference_type n) { v_ -= n; return *this; }
  friend counting_iterator operator+(counting_iterator a, difference_type n) { return counting_iterator(a.v_ + n); }
  friend counting_iterator operator+(difference_type n, counting_iterator a) { return counting_iterator(a.v_ + n); }
  friend counting_iterator operator-(counting_iterator a, difference_type n) { return counting_iterator(a.v_ - n); }
  friend difference_type operator-(counting_iterator a, counting_iterator b) { return a.v_ - b.v_; }
  friend auto operator<=>(counting_iterator a, counting_iterator b) = default;

 private:
  std::int64_t v_ = 0;
};

}  // namespace argx::detail::cpu
