#pragma once
// Searches of sorted spike times that the CPU code and the CUDA kernels share.

#include "host_device.hpp"

#include "spikeminer/core/time_base.hpp"

#include <cstddef>

namespace spikeminer::mining::detail {

/// The first of `n` sorted times at or after `t` (n when none is).
SPIKEMINER_HOST_DEVICE inline std::size_t first_at(const Tick* times, std::size_t n, Tick t) {
    std::size_t lo = 0;
    std::size_t hi = n;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (times[mid] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
}

}  // namespace spikeminer::mining::detail
