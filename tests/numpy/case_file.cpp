#include "case_file.hpp"

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace argx_test {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// Sequential reads from the file's bytes: header lines, then raw payloads.
class cursor {
 public:
  explicit cursor(std::string bytes) : bytes_(std::move(bytes)) {}
  bool done() const { return pos_ >= bytes_.size(); }
  std::string line() {
    const auto end = bytes_.find('\n', pos_);
    if (end == std::string::npos) throw std::runtime_error("numpy cases: missing newline at byte " + std::to_string(pos_));
    std::string l = bytes_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return l;
  }
  // `n` payload bytes followed by a newline.
  std::string payload(std::size_t n) {
    if (pos_ + n + 1 > bytes_.size() || bytes_[pos_ + n] != '\n')
      throw std::runtime_error("numpy cases: truncated payload at byte " + std::to_string(pos_));
    std::string p = bytes_.substr(pos_, n);
    pos_ += n + 1;
    return p;
  }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
};

argx::shape read_shape(std::istringstream& in) {
  int rank;
  in >> rank;
  argx::shape s;
  for (int d = 0; d < rank; ++d) {
    std::int64_t e;
    in >> e;
    s.push_back(e);
  }
  return s;
}

host_tensor read_array(std::istringstream& in, cursor& c, int& id) {
  std::string dtype_name;
  in >> id >> dtype_name;
  const auto t = argx::parse_dtype(dtype_name);
  if (!t) throw std::runtime_error("numpy cases: unknown dtype " + dtype_name);
  const argx::shape extents = read_shape(in);
  std::size_t nbytes;
  in >> nbytes;
  if (!in || nbytes != static_cast<std::size_t>(element_count(extents)) * argx::size_of(*t))
    throw std::runtime_error("numpy cases: bad array header for array " + std::to_string(id));
  const std::string data = c.payload(nbytes);
  auto storage = std::make_shared<std::vector<unsigned char>>(data.begin(), data.end());
  storage->push_back(0);  // keeps data() non-null for empty arrays
  return {storage, argx::make_view(storage->data(), *t, extents, argx::contiguous_strides(extents))};
}

numpy_query read_query(std::istringstream& in, cursor& c) {
  numpy_query q;
  std::string view, axes;
  int keep;
  in >> q.array >> view >> q.func >> axes >> keep >> q.status;
  if (view != "-") q.view_ops = split(view, ';');
  if (axes != "all") {
    q.all_axes = false;
    for (const auto& a : split(axes, ',')) q.axes.push_back(std::stoi(a));
  }
  q.keepdims = keep != 0;
  q.extents = read_shape(in);
  std::size_t count;
  in >> count;
  if (!in) throw std::runtime_error("numpy cases: bad query header");
  const std::string data = c.payload(count * 8);
  q.answer.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t u = 0;
    for (int b = 7; b >= 0; --b) u = (u << 8) | static_cast<unsigned char>(data[i * 8 + b]);  // little-endian
    q.answer[i] = static_cast<std::int64_t>(u);
  }
  return q;
}

}  // namespace

numpy_cases read_numpy_cases(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("numpy cases: cannot open " + path);
  cursor c(std::string(std::istreambuf_iterator<char>(f), {}));
  if (c.line() != "argx-numpy-cases 1") throw std::runtime_error("numpy cases: not a cases file: " + path);
  numpy_cases out;
  for (;;) {
    std::istringstream in(c.line());
    std::string kind;
    in >> kind;
    if (kind == "end") break;
    if (kind == "array") {
      int id;
      host_tensor x = read_array(in, c, id);
      out.arrays.emplace(id, std::move(x));
    } else if (kind == "query") {
      out.queries.push_back(read_query(in, c));
    } else {
      throw std::runtime_error("numpy cases: unexpected record " + kind);
    }
  }
  return out;
}

host_tensor apply_view(const host_tensor& x, const std::vector<std::string>& ops) {
  host_tensor v = x;
  for (const auto& op : ops) {
    const auto parts = split(op, ':');
    std::vector<std::int64_t> a;
    for (std::size_t i = 1; i < parts.size(); ++i) a.push_back(std::stoll(parts[i]));
    if (parts[0] == "swap" && a.size() == 2) v = v.transposed(static_cast<int>(a[0]), static_cast<int>(a[1]));
    else if (parts[0] == "flip" && a.size() == 1) v = v.flipped(static_cast<int>(a[0]));
    else if (parts[0] == "slice" && a.size() == 4) v = v.sliced(static_cast<int>(a[0]), a[1], std::min(a[2], v.view.extents[a[0]]), a[3]);
    else throw std::runtime_error("numpy cases: unknown view op " + op);
  }
  return v;
}

}  // namespace argx_test
