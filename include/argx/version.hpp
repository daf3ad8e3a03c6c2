// argx version numbers.
#pragma once

#define ARGX_VERSION_MAJOR 0
#define ARGX_VERSION_MINOR 1
#define ARGX_VERSION_PATCH 0

namespace argx {
/// The library version as "major.minor.patch".
inline constexpr const char* version_string = "0.1.0";
}  // namespace argx
