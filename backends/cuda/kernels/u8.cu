// The kernels of one dtype (one translation unit a dtype: the builds of all run in parallel).
#include "../enqueue.cuh"

ARGX_INSTANTIATE_KERNELS(u8)
