#pragma once

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace spikeminer::detail {

/// Owns one device allocation of `count` elements and frees it on every path out.
/// Allocation failures throw Error through SPIKEMINER_CUDA_CHECK, except that
/// try_allocate reports cudaErrorMemoryAllocation to the caller (for fallbacks).
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { SPIKEMINER_CUDA_CHECK(allocate(count)); }
    ~DeviceBuffer() { cudaFree(ptr_); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(count_, other.count_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    /// Replaces the allocation; returns the CUDA status instead of throwing.
    cudaError_t try_allocate(std::size_t count) { return allocate(count); }

    [[nodiscard]] T* get() const { return ptr_; }
    [[nodiscard]] std::size_t size() const { return count_; }

private:
    cudaError_t allocate(std::size_t count) {
        cudaFree(ptr_);
        ptr_ = nullptr;
        count_ = 0;
        const cudaError_t status = cudaMalloc(reinterpret_cast<void**>(&ptr_), (count == 0 ? 1 : count) * sizeof(T));
        if (status == cudaSuccess) {
            count_ = count;
        } else {
            ptr_ = nullptr;
            cudaGetLastError();  // clear the error so that later calls start clean
        }
        return status;
    }

    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

/// Allocates `count` elements, or throws GpuOutOfMemory naming `what` and the size when
/// the device is full (other CUDA failures throw Error).
template <typename T>
DeviceBuffer<T> allocate_or_oom(std::size_t count, const char* what) {
    DeviceBuffer<T> buffer;
    const cudaError_t status = buffer.try_allocate(count);
    if (status == cudaErrorMemoryAllocation) {
        throw GpuOutOfMemory(std::string(what) + ": " + std::to_string(count * sizeof(T) >> 20) + " MiB");
    }
    SPIKEMINER_CUDA_CHECK(status);
    return buffer;
}

}  // namespace spikeminer::detail
