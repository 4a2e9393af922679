// Small device-side helpers shared by the CUDA sources: this thread's index in the grid
// and a binary search.
#pragma once

#include <cstddef>

namespace spikeminer::detail {

/// This thread's index in the whole grid, in 64 bits.
__device__ inline std::size_t thread_index() { return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; }

/// The first position in sorted a[lo, hi) whose value is >= x (hi when none is).
template <typename T>
__device__ std::size_t lower_bound(const T* a, std::size_t lo, std::size_t hi, T x) {
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

}  // namespace spikeminer::detail
