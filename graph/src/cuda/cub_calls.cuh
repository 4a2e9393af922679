// Small host-side helpers shared by the graph module's CUDA sources.
#pragma once

#include "device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace spikeminer::graph::detail::gpu {

/// Blocks of `per_block` threads (or work items) for n items (at least one block).
inline unsigned blocks_for(std::size_t n, std::size_t per_block) {
    return static_cast<unsigned>(n == 0 ? 1 : (n + per_block - 1) / per_block);
}

/// Runs one CUB device call with its scratch: `call(temp, bytes)` is asked for the size
/// first, then run; waits for the stream so that results can be read back.
template <typename Call>
void run_cub(Call call, cudaStream_t stream) {
    std::size_t bytes = 0;
    SPIKEMINER_CUDA_CHECK(call(nullptr, bytes));
    auto temp = spikeminer::detail::allocate_or_oom<unsigned char>(bytes, "CUB scratch");
    SPIKEMINER_CUDA_CHECK(call(temp.get(), bytes));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
}

/// Copies host data into a new device buffer.
template <typename T>
spikeminer::detail::DeviceBuffer<T> upload(const T* host, std::size_t n, const char* what, cudaStream_t stream) {
    auto buffer = spikeminer::detail::allocate_or_oom<T>(n, what);
    if (n != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(buffer.get(), host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    return buffer;
}

}  // namespace spikeminer::graph::detail::gpu
