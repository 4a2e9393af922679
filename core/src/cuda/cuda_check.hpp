#pragma once

#include "spikeminer/core/error.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace spikeminer::detail {

/// Throws Error naming the call and the CUDA error when `status` is not cudaSuccess.
inline void cuda_check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw Error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
    }
}

}  // namespace spikeminer::detail

#define SPIKEMINER_CUDA_CHECK(call) ::spikeminer::detail::cuda_check((call), #call)
