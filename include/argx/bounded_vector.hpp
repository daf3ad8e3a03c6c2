// A fixed-capacity vector of plain values: extents, strides and dim lists without heap
// allocation, trivially copyable into kernels.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstddef>
#include <initializer_list>
#include <span>

#include "error.hpp"

namespace argx {

template <class T, int Capacity>
class bounded_vector {
 public:
  constexpr bounded_vector() = default;
  constexpr bounded_vector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  constexpr bounded_vector(std::span<const T> init) { assign(init.begin(), init.end()); }

  /// Replaces the contents; more than Capacity elements is an argx::error (bad_shape).
  template <class It>
  constexpr void assign(It first, It last) {
    size_ = 0;
    for (; first != last; ++first) push_back(static_cast<T>(*first));
  }
  constexpr void push_back(T v) {
    if (size_ >= Capacity) throw error(errc::bad_shape, "more than " + std::to_string(Capacity) + " dims");
    data_[size_++] = v;
  }
  constexpr void clear() noexcept { size_ = 0; }

  ARGX_HOST_DEVICE constexpr int size() const noexcept { return size_; }
  ARGX_HOST_DEVICE constexpr bool empty() const noexcept { return size_ == 0; }
  ARGX_HOST_DEVICE constexpr T& operator[](int i) noexcept { return data_[i]; }
  ARGX_HOST_DEVICE constexpr const T& operator[](int i) const noexcept { return data_[i]; }
  constexpr T* begin() noexcept { return data_; }
  constexpr T* end() noexcept { return data_ + size_; }
  constexpr const T* begin() const noexcept { return data_; }
  constexpr const T* end() const noexcept { return data_ + size_; }
  constexpr std::span<const T> span() const noexcept { return {data_, static_cast<std::size_t>(size_)}; }

  friend constexpr bool operator==(const bounded_vector& a, const bounded_vector& b) noexcept {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i)
      if (!(a.data_[i] == b.data_[i])) return false;
    return true;
  }

 private:
  T data_[Capacity] = {};
  int size_ = 0;
};

}  // namespace argx
