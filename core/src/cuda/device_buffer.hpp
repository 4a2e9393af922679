#pragma once

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace spikeminer::detail {

/// Owns one device allocation of `count` elements and frees it on every path out.
/// Allocation failures throw Error through SPIKEMINER_CUDA_CHECK, except that
/// try_allocate reports cudaErrorMemoryAllocation to the caller (for fallbacks).
/// try_allocate_on takes the memory from the device's stream-ordered pool instead (where
/// the device has pools): it is freed on that stream, after the work queued there,
/// without waiting for the device (cudaFree waits for the whole device: tens of
/// microseconds each).
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { SPIKEMINER_CUDA_CHECK(allocate(count, false, nullptr)); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)),
          pooled_(std::exchange(other.pooled_, false)), stream_(other.stream_) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(count_, other.count_);
        std::swap(pooled_, other.pooled_);
        std::swap(stream_, other.stream_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    /// Replaces the allocation; returns the CUDA status instead of throwing.
    cudaError_t try_allocate(std::size_t count) { return allocate(count, false, nullptr); }
    /// The same from the pool, on `stream` (which must outlive the buffer).
    cudaError_t try_allocate_on(std::size_t count, cudaStream_t stream) { return allocate(count, true, stream); }

    [[nodiscard]] T* get() const { return ptr_; }
    [[nodiscard]] std::size_t size() const { return count_; }

private:
    void release() {
        const cudaError_t status = pooled_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_);
        if (status != cudaSuccess) cudaGetLastError();  // not to be blamed on a later call
        ptr_ = nullptr;
        count_ = 0;
    }

    cudaError_t allocate(std::size_t count, bool pooled, cudaStream_t stream) {
        release();
        pooled_ = pooled;
        stream_ = stream;
        const std::size_t bytes = (count == 0 ? 1 : count) * sizeof(T);
        cudaError_t status = pooled ? cudaMallocAsync(reinterpret_cast<void**>(&ptr_), bytes, stream)
                                    : cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes);
        if (status == cudaErrorNotSupported) {  // a device or driver without memory pools
            cudaGetLastError();
            pooled_ = false;
            status = cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes);
        }
        if (status == cudaSuccess) {
            count_ = count;
        } else {
            ptr_ = nullptr;
            pooled_ = false;
            cudaGetLastError();  // clear the error so that later calls start clean
        }
        return status;
    }

    T* ptr_ = nullptr;
    std::size_t count_ = 0;
    bool pooled_ = false;
    cudaStream_t stream_ = nullptr;
};

/// Throws GpuOutOfMemory naming `what` and its size when `status` says the device is
/// full, Error for any other failure.
inline void check_allocation(cudaError_t status, std::size_t bytes, const char* what) {
    if (status == cudaErrorMemoryAllocation) throw GpuOutOfMemory(std::string(what) + ": " + std::to_string(bytes >> 20) + " MiB");
    SPIKEMINER_CUDA_CHECK(status);
}

/// Allocates `count` elements, or throws GpuOutOfMemory naming `what` and the size when
/// the device is full (other CUDA failures throw Error).
template <typename T>
DeviceBuffer<T> allocate_or_oom(std::size_t count, const char* what) {
    DeviceBuffer<T> buffer;
    check_allocation(buffer.try_allocate(count), count * sizeof(T), what);
    return buffer;
}

/// What each device's stream-ordered pool keeps between uses: a small graph's buffers, all
/// of them (a clique count makes about 30 allocations). Beyond it, the pool gives memory
/// back at a synchronization, so a large search's workspace does not stay reserved where
/// other engines size their work from the free memory.
inline constexpr std::size_t kPoolKept = std::size_t{256} << 20;

/// Lets the current device's stream-ordered pool keep kPoolKept (by default it gives
/// everything back at each synchronization, and the next allocation maps it again); once
/// per device in the process.
inline void keep_pool_memory() {
    static std::mutex mutex;
    static std::vector<int> done;  // devices whose pool is set
    int device = 0;
    SPIKEMINER_CUDA_CHECK(cudaGetDevice(&device));
    const std::lock_guard lock(mutex);
    if (std::find(done.begin(), done.end(), device) != done.end()) return;
    int pools = 0;
    SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    if (pools != 0) {
        cudaMemPool_t pool{};
        SPIKEMINER_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
        auto threshold = static_cast<std::uint64_t>(kPoolKept);
        SPIKEMINER_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    }
    done.push_back(device);
}

/// The same from the current device's stream-ordered pool on `stream` (see DeviceBuffer
/// and kPoolKept).
template <typename T>
DeviceBuffer<T> allocate_or_oom(std::size_t count, const char* what, cudaStream_t stream) {
    keep_pool_memory();
    DeviceBuffer<T> buffer;
    check_allocation(buffer.try_allocate_on(count, stream), count * sizeof(T), what);
    return buffer;
}

}  // namespace spikeminer::detail
