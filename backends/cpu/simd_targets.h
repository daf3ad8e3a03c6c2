// The instruction sets the SIMD kernels are compiled for, shared by simd_hwy_floats.cpp and
// simd_hwy_integers.cpp so both halves of the kernel table pick the same one at run time.
// Each target is a full copy of every kernel, and compile time grows with each: x86 CPUs
// without AVX2 (before 2013) take Highway's portable 128-bit target instead of SSSE3/SSE4.
// -Dsimd_targets=static defines HWY_COMPILE_ONLY_STATIC: only the target the compiler flags
// give (with -march=native, this machine's best): one copy of the kernels, not three.
#if !defined(HWY_DISABLED_TARGETS) && !defined(HWY_COMPILE_ONLY_STATIC)
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
