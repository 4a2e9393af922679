#pragma once
// Wall-clock timing for the benchmarks.

#include <chrono>
#include <functional>

namespace spikeminer::bench {

/// Seconds that `work` takes.
inline double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace spikeminer::bench
