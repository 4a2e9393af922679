#pragma once
// The surrogates' counter-based random numbers: a value is a pure function of (seed,
// surrogate, neuron, spike), mixed by SplitMix64's finalizer, so that the CPU and the GPU
// draw the same values in any order and in parallel.

#include "host_device.hpp"

#include <cstdint>

namespace spikeminer::mining::detail {

SPIKEMINER_HOST_DEVICE inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// The random value for one (seed, surrogate, neuron, spike).
SPIKEMINER_HOST_DEVICE inline std::uint64_t surrogate_random(std::uint64_t seed, std::uint64_t surrogate, std::uint64_t neuron,
                                                             std::uint64_t spike) {
    return splitmix64(splitmix64(splitmix64(splitmix64(seed) ^ surrogate) ^ neuron) ^ spike);
}

/// A uniform integer in [lo, hi] (lo <= hi) from a 64-bit random value (Lemire's
/// multiply-shift: no division, a bias below 2^-64 per unit of the range).
SPIKEMINER_HOST_DEVICE inline std::int64_t uniform_between(std::uint64_t random, std::int64_t lo, std::int64_t hi) {
    const auto range = static_cast<std::uint64_t>(hi - lo) + 1;  // 0 when the range is all of 2^64
#ifdef __CUDA_ARCH__
    const std::uint64_t scaled = __umul64hi(random, range);
#else
    __extension__ using Uint128 = unsigned __int128;
    const auto scaled = static_cast<std::uint64_t>((static_cast<Uint128>(random) * range) >> 64);
#endif
    return lo + static_cast<std::int64_t>(range == 0 ? random : scaled);
}

}  // namespace spikeminer::mining::detail
