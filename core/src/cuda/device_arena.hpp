// A grow-only scratch arena for work that runs as many small steps on one stream (the
// dynamic graph's batches): buffers are bump-allocated and all released at once, so the
// steps neither call cudaMalloc nor cudaFree (which waits for the whole device).
#pragma once

#include "device_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace spikeminer::detail {

class DeviceArena {
public:
    /// `count` elements, aligned for any type; valid until reset(). A request that does
    /// not fit gets its own allocation, and the next reset() grows the arena to hold the
    /// whole demand seen since the last one.
    template <typename T>
    T* take(std::size_t count, const char* what) {
        const std::size_t bytes = round_up((count == 0 ? 1 : count) * sizeof(T));
        demand_ += bytes;
        if (used_ + bytes <= block_.size()) {
            T* out = reinterpret_cast<T*>(block_.get() + used_);
            used_ += bytes;
            return out;
        }
        overflow_.push_back(allocate_or_oom<unsigned char>(bytes, what));
        return reinterpret_cast<T*>(overflow_.back().get());
    }

    /// Changes whenever the arena moves (what was taken before lies elsewhere now).
    [[nodiscard]] std::uint64_t generation() const { return generation_; }

    /// Whether the next reset() frees memory (the stream must be idle by then).
    [[nodiscard]] bool overflowed() const { return !overflow_.empty(); }

    /// Releases everything taken. Call only when the stream's work on it is queued
    /// (stream order keeps later kernels after earlier ones) and, when overflowed(), done.
    void reset() {
        if (!overflow_.empty()) {
            ++generation_;  // first: what was taken is gone even if the larger block cannot be had
            overflow_.clear();
            block_ = DeviceBuffer<unsigned char>();
            block_ = allocate_or_oom<unsigned char>(demand_ + demand_ / 4, "scratch arena");
        }
        used_ = 0;
        demand_ = 0;
    }

private:
    static std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

    DeviceBuffer<unsigned char> block_;
    std::vector<DeviceBuffer<unsigned char>> overflow_;
    std::size_t used_ = 0;
    std::size_t demand_ = 0;
    std::uint64_t generation_ = 0;
};

/// Runs one CUB device call with its scratch from `arena`, queued on the call's stream
/// (no wait: read results with a stream-ordered copy).
template <typename Call>
void run_cub_queued(DeviceArena& arena, Call call) {
    std::size_t bytes = 0;
    SPIKEMINER_CUDA_CHECK(call(nullptr, bytes));
    SPIKEMINER_CUDA_CHECK(call(arena.take<unsigned char>(bytes, "CUB scratch"), bytes));
}

}  // namespace spikeminer::detail
