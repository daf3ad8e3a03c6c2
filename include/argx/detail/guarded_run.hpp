// One reduction run into output buffers fenced by guard bytes, and what it did: the
// outputs' bytes or the argx::error it raised, and any byte written where it must not be
// (outside the outputs, or anywhere when the call failed). The one such runner of the
// backend tests (tests/support/harness.cpp) and of the CLI's reduce, diff, fuzz and demo
// (tools/cli/outcome.cpp). Header-only; not part of argx's API.
#pragma once

#include "../config.hpp"  // first: the C++20 check

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "../argx.hpp"

namespace argx::detail {

/// A host buffer of `size` bytes between two guard zones; every byte starts as `fill`.
class guarded_buffer {
 public:
  static constexpr std::size_t guard_bytes = 64;
  static constexpr unsigned char fill = 0xA5;

  explicit guarded_buffer(std::size_t size) : bytes_(size + 2 * guard_bytes, fill), size_(size) {}
  unsigned char* data() { return bytes_.data() + guard_bytes; }
  const unsigned char* data() const { return bytes_.data() + guard_bytes; }
  std::size_t size() const { return size_; }
  /// Every byte, the guards' too: what a copy of the buffer elsewhere (GPU memory) holds.
  std::vector<unsigned char>& with_guards() { return bytes_; }

  bool guards_intact() const {
    const auto is_fill = [](unsigned char b) { return b == fill; };
    return std::all_of(bytes_.begin(), bytes_.begin() + guard_bytes, is_fill) &&
           std::all_of(bytes_.end() - guard_bytes, bytes_.end(), is_fill);
  }
  bool untouched() const {
    return std::all_of(bytes_.begin(), bytes_.end(), [](unsigned char b) { return b == fill; });
  }

 private:
  std::vector<unsigned char> bytes_;
  std::size_t size_;
};

/// Outputs in host memory: the guarded buffers themselves. A placement gives the address
/// the reduction writes a buffer's bytes at, and brings them back into it afterwards.
struct host_placement {
  static constexpr memory_space space = memory_space::host;
  void* place(guarded_buffer& b) { return b.data(); }
  void fetch(guarded_buffer&) {}
};

/// What one guarded run did.
struct guarded_outcome {
  bool ok = false;
  std::exception_ptr error;                    ///< when !ok: the argx::error raised (null: no memory for the buffers)
  errc code = errc::bad_argument;              ///< when !ok
  std::string message;                         ///< when !ok, without the "argx: " prefix
  shape extents;                               ///< the output shape, when ok
  std::vector<unsigned char> indices, values;  ///< raw output bytes, when ok
  std::string damage;                          ///< non-empty when a byte was written where it must not be

  /// The indices as int64, whatever their type `t`.
  std::vector<std::int64_t> indices_int64(index_type t) const {
    std::vector<std::int64_t> out;
    if (t == index_type::int64) {
      out.resize(indices.size() / 8);
      if (!out.empty()) std::memcpy(out.data(), indices.data(), out.size() * 8);
      return out;
    }
    for (std::size_t i = 0; i + 4 <= indices.size(); i += 4) {
      std::int32_t v;
      std::memcpy(&v, indices.data() + i, 4);
      out.push_back(v);
    }
    return out;
  }
};

/// Runs call(iv, vv), the reduction of x with (o, s) into the output views it is given (vv
/// null unless `values`), once into guarded buffers placed by `where`, and reports what it
/// did. An input the plan refuses gets outputs of no bytes: the call must raise the same
/// error. After a checked run that succeeded, the call runs `repeats` more times on the
/// same outputs (timing runs, not checked). Only argx::error is caught.
template <class Placement, class Call>
guarded_outcome run_guarded(const tensor_view& x, op o, const spec& s, bool values, Placement& where, Call&& call,
                            int repeats = 0) {
  guarded_outcome r;
  const dtype index_dtype = s.index == index_type::int64 ? dtype::i64 : dtype::i32;
  shape extents;
  std::int64_t index_bytes = 0, value_bytes = 0;
  bool planned = true;
  try {
    const plan p = make_plan(x, o, s);
    extents = p.out_extents;
    index_bytes = output_bytes(p.outputs, index_dtype, "index");
    value_bytes = values ? output_bytes(p.outputs, x.type, "values") : 0;
  } catch (const error&) {
    planned = false;
    index_bytes = value_bytes = 0;
  }
  std::optional<guarded_buffer> index_buffer, value_buffer;
  try {
    index_buffer.emplace(static_cast<std::size_t>(index_bytes));
    value_buffer.emplace(static_cast<std::size_t>(value_bytes));
  } catch (const std::exception&) {
    r.code = errc::out_of_memory;
    r.message = "no host memory for output buffers of " + std::to_string(index_bytes + value_bytes) + " bytes";
    return r;
  }
  guarded_buffer &idx = *index_buffer, &val = *value_buffer;
  const output_view iv = make_output(where.place(idx), index_dtype, extents, Placement::space);
  const output_view vv = make_output(where.place(val), x.type, extents, Placement::space);
  try {
    call(iv, values ? &vv : nullptr);
    r.ok = true;
  } catch (const error& e) {
    r.error = std::current_exception();
    r.code = e.code();
    const std::string what = e.what();
    r.message = what.rfind("argx: ", 0) == 0 ? what.substr(6) : what;
  }
  where.fetch(idx);
  where.fetch(val);
  if (r.ok ? !(idx.guards_intact() && val.guards_intact()) : !(idx.untouched() && val.untouched()))
    r.damage = r.ok ? "wrote outside its output buffers" : "wrote into its output buffers and then failed";
  else if (r.ok && !planned)
    r.damage = "accepted a reduction that make_plan refuses";
  if (!r.ok) return r;
  r.extents = extents;
  r.indices.assign(idx.data(), idx.data() + idx.size());
  r.values.assign(val.data(), val.data() + val.size());
  for (int k = 0; k < repeats; ++k) call(iv, values ? &vv : nullptr);
  return r;
}

}  // namespace argx::detail
