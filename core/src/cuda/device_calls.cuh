// Host-side helpers shared by the CUDA sources of every module: grid sizes, uploads,
// single-value reads, CUB calls with their scratch, launch checks.
#pragma once

#include "device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spikeminer::detail {

/// Blocks of `per_block` threads (or work items) for n items (at least one block).
inline unsigned blocks_for(std::size_t n, std::size_t per_block) {
    return static_cast<unsigned>(n == 0 ? 1 : (n + per_block - 1) / per_block);
}

/// Copies n elements of host data into `buffer` on `stream` and hands the buffer back.
template <typename T>
DeviceBuffer<T> filled(DeviceBuffer<T> buffer, const T* host, std::size_t n, cudaStream_t stream) {
    if (n != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(buffer.get(), host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
    return buffer;
}

/// Copies host data into a new device buffer (GpuOutOfMemory when the device is full).
template <typename T>
DeviceBuffer<T> upload(const T* host, std::size_t n, const char* what, cudaStream_t stream = nullptr) {
    return filled(allocate_or_oom<T>(n, what), host, n, stream);
}

template <typename T, typename Allocator>
DeviceBuffer<T> upload(const std::vector<T, Allocator>& host, const char* what, cudaStream_t stream = nullptr) {
    return upload(host.data(), host.size(), what, stream);
}

/// The same into memory from the device's stream-ordered pool on `stream` (see DeviceBuffer).
template <typename T>
DeviceBuffer<T> upload_pooled(const T* host, std::size_t n, const char* what, cudaStream_t stream) {
    return filled(allocate_or_oom<T>(n, what, stream), host, n, stream);
}

/// Copies `n` elements of device memory into a new host vector (waits for the copy).
template <typename T>
std::vector<T> download(const T* device, std::size_t n) {
    std::vector<T> host(n);
    if (n != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

/// One value from device memory, read after the work queued on `stream` (waits for it).
template <typename T>
T read_one(const T* device_value, cudaStream_t stream = nullptr) {
    T value{};
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(&value, device_value, sizeof(T), cudaMemcpyDeviceToHost, stream));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
    return value;
}

/// Throws Error when the last kernel launch failed.
inline void check_launch() { SPIKEMINER_CUDA_CHECK(cudaGetLastError()); }

/// Queues one CUB device call on `stream` with its scratch (from the stream-ordered pool,
/// freed in stream order): `call(temp, bytes)` is asked for the size first, then run. It
/// does not wait: read results with read_one, or after a synchronization (a wait after
/// each call left the device idle while the host queued the next work).
template <typename Call>
void run_cub(Call call, cudaStream_t stream) {
    std::size_t bytes = 0;
    SPIKEMINER_CUDA_CHECK(call(nullptr, bytes));
    auto temp = allocate_or_oom<unsigned char>(bytes, "CUB scratch", stream);
    SPIKEMINER_CUDA_CHECK(call(temp.get(), bytes));
}

/// Widens 32-bit counts to 64 bits inside a scan (sums of many counts overflow 32 bits).
struct Widen {
    __host__ __device__ std::uint64_t operator()(std::uint32_t c) const { return c; }
};

}  // namespace spikeminer::detail
