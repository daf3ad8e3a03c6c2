#include "host_tensor.hpp"

#include <stdexcept>

#include "element_bits.hpp"

namespace argx_test {

using argx::dtype;

std::ptrdiff_t host_tensor::data_offset() const {
  return static_cast<const unsigned char*>(view.data) - storage->data();
}

host_tensor host_tensor::broadcast(int dim, std::int64_t n) const {
  argx::tensor_view v = view;
  if (dim < 0 || dim >= v.rank() || v.extents[dim] < 1) throw std::invalid_argument("broadcast: bad dim");
  v.extents[dim] = n;
  v.strides[dim] = 0;
  return with_view(v);
}

std::uint64_t host_tensor::at(const argx::shape& index) const {
  std::int64_t off = 0;
  for (int d = 0; d < rank(); ++d) off += index[d] * view.strides[d];
  return load_bits(type(), static_cast<const char*>(view.data) + off * static_cast<std::int64_t>(argx::size_of(type())));
}

std::int64_t element_count(const argx::shape& extents) {
  std::int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

host_tensor make_tensor_bits(dtype t, const std::vector<std::uint64_t>& bits, argx::shape extents) {
  const std::int64_t n = element_count(extents);
  if (n != static_cast<std::int64_t>(bits.size()))
    throw std::invalid_argument("make_tensor: " + std::to_string(bits.size()) + " values for shape " + to_string(extents));
  const std::size_t w = argx::size_of(t);
  // One spare byte keeps data() non-null for empty tensors.
  auto storage = std::make_shared<std::vector<unsigned char>>(bits.size() * w + 1, 0);
  for (std::size_t i = 0; i < bits.size(); ++i) store_bits(t, storage->data() + i * w, bits[i]);
  return {storage, argx::make_view(storage->data(), t, extents, argx::contiguous_strides(extents))};
}

host_tensor make_tensor_bits(dtype t, const std::vector<std::uint64_t>& bits) {
  return make_tensor_bits(t, bits, argx::shape{static_cast<std::int64_t>(bits.size())});
}

host_tensor make_tensor(dtype t, const std::vector<double>& values, argx::shape extents) {
  std::vector<std::uint64_t> bits;
  bits.reserve(values.size());
  for (double v : values) bits.push_back(encode(t, v));
  return make_tensor_bits(t, bits, extents);
}

host_tensor make_tensor(dtype t, const std::vector<double>& values) {
  return make_tensor(t, values, argx::shape{static_cast<std::int64_t>(values.size())});
}

host_tensor make_filled(dtype t, std::uint64_t bits, argx::shape extents) {
  return make_tensor_bits(t, std::vector<std::uint64_t>(static_cast<std::size_t>(element_count(extents)), bits), extents);
}

void set_flat(host_tensor& x, std::int64_t flat, std::uint64_t bits) {
  store_bits(x.type(), x.storage->data() + flat * static_cast<std::int64_t>(argx::size_of(x.type())), bits);
}

std::string to_string(const argx::shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(s[i]);
  }
  return out + ")";
}

std::string describe(const host_tensor& x) {
  return std::string(argx::name(x.type())) + " extents " + to_string(x.view.extents) + " strides " +
         to_string(x.view.strides) + " offset " + std::to_string(x.data_offset() / static_cast<std::ptrdiff_t>(argx::size_of(x.type())));
}

std::string describe(argx::op o, const argx::spec& s) {
  std::string dims = "{";
  for (int i = 0; i < s.dims.size(); ++i) {
    if (i) dims += ',';
    dims += std::to_string(s.dims[i]);
  }
  dims += "}";
  return std::string(o == argx::op::argmax ? "argmax" : "argmin") + " dims " + dims +
         (s.keepdim ? " keepdim" : "") + (s.nan == argx::nan_policy::ignore ? " nan=ignore" : " nan=propagate") +
         (s.ties == argx::tie_break::last ? " ties=last" : " ties=first") + (s.abs ? " abs" : "") +
         (s.index == argx::index_type::int32 ? " int32" : " int64");
}

const std::vector<dtype>& all_dtypes() {
  static const std::vector<dtype> v = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64, dtype::i8,
                                       dtype::i16, dtype::i32,  dtype::i64, dtype::u8,  dtype::u16,
                                       dtype::u32, dtype::u64,  dtype::boolean};
  return v;
}
const std::vector<dtype>& float_dtypes() {
  static const std::vector<dtype> v = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64};
  return v;
}
const std::vector<dtype>& integer_dtypes() {
  static const std::vector<dtype> v = {dtype::i8,  dtype::i16, dtype::i32, dtype::i64, dtype::u8,
                                       dtype::u16, dtype::u32, dtype::u64, dtype::boolean};
  return v;
}

}  // namespace argx_test
