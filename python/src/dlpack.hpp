// The DLPack ABI (https://dmlc.github.io/dlpack), as much of it as a consumer reads: the
// legacy "dltensor" capsule that every producer hands out when called without max_version.
#pragma once

#include <cstdint>

namespace argx::python::dlpack {

/// DLDeviceType values argx can read.
enum device_type : std::int32_t { cpu = 1, cuda = 2, cuda_host = 3, cuda_managed = 13 };

/// DLDataTypeCode values.
enum type_code : std::uint8_t {
  int_code = 0,
  uint_code = 1,
  float_code = 2,
  bfloat_code = 4,
  complex_code = 5,
  bool_code = 6,
};

struct device {
  std::int32_t type;
  std::int32_t id;
};

struct data_type {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct tensor {
  void* data;
  device dev;
  std::int32_t ndim;
  data_type dtype;
  std::int64_t* shape;
  std::int64_t* strides;  ///< in elements; null means row-major
  std::uint64_t byte_offset;
};

struct managed_tensor {
  tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(managed_tensor*);
};

/// Name of an unconsumed legacy capsule. argx leaves it unconsumed: the producer's capsule
/// destructor then calls the deleter when argx drops the capsule, after the reduction.
inline constexpr const char* capsule_name = "dltensor";

}  // namespace argx::python::dlpack
