#pragma once
// Marks functions that the CPU code and the CUDA kernels share, from one source.

#ifdef __CUDACC__
#define SPIKEMINER_HOST_DEVICE __host__ __device__
#else
#define SPIKEMINER_HOST_DEVICE
#endif
