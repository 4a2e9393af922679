// Pinned host memory that the devices read and write directly (portable, mapped), from a
// process-wide cache. Pinning and unpinning cost about half a millisecond each on the
// H200 host (two small blocks took 1 ms of a 7 ms count on email-Enron), as long as a
// small graph's whole search; kept blocks are reused by later calls of any thread.
#pragma once

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>

namespace spikeminer::detail {

class PinnedCache {
public:
    /// A block of at least `bytes`, zeroed when `zeroed`.
    static void* acquire(std::size_t bytes, bool zeroed) {
        void* block = nullptr;
        {
            const std::lock_guard lock(instance().mutex_);
            auto& kept = instance().kept_;
            const auto found = kept.find(bytes);
            if (found != kept.end()) {
                block = found->second;
                kept.erase(found);
            }
        }
        if (block == nullptr) SPIKEMINER_CUDA_CHECK(cudaHostAlloc(&block, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
        if (zeroed) std::memset(block, 0, bytes);
        return block;
    }

    /// Keeps `block` (of `bytes`, from acquire) for a later call.
    static void release(void* block, std::size_t bytes) {
        const std::lock_guard lock(instance().mutex_);
        instance().kept_.emplace(bytes, block);
    }

private:
    static PinnedCache& instance() {
        static PinnedCache cache;  // its blocks are never unpinned: they last as long as the process
        return cache;
    }

    std::mutex mutex_;
    std::multimap<std::size_t, void*> kept_;  // by size
};

/// n elements of T from the cache (none for n = 0), returned to it when destroyed; zeroed
/// unless Contents::Unset (a buffer the device fills before it is read: zeroing the
/// clique ring's 16 MiB costs about 0.15 ms a listing run on the dev machine).
enum class Contents { Zeroed, Unset };

template <typename T>
class MappedHost {
public:
    explicit MappedHost(std::size_t n, Contents contents = Contents::Zeroed) : bytes_(n * sizeof(T)) {
        if (n != 0) ptr_ = static_cast<T*>(PinnedCache::acquire(bytes_, contents == Contents::Zeroed));
    }
    ~MappedHost() {
        if (ptr_ != nullptr) PinnedCache::release(ptr_, bytes_);
    }
    MappedHost(const MappedHost&) = delete;
    MappedHost& operator=(const MappedHost&) = delete;

    [[nodiscard]] T* host() const { return ptr_; }
    /// Its address on the current device (null when empty).
    [[nodiscard]] T* device() const {
        T* d = nullptr;
        if (ptr_ != nullptr) SPIKEMINER_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d), ptr_, 0));
        return d;
    }

private:
    std::size_t bytes_;
    T* ptr_ = nullptr;
};

}  // namespace spikeminer::detail
