#pragma once

#include "neuron_times.hpp"

#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/count.hpp"

#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// Thrown by the GPU counters when the device runs out of memory, so that the caller can
/// fall back to the CPU.
struct GpuOutOfMemory {
    std::string what;
};

/// Counts on the current CUDA device with CountScanWrite or AtomicCompact, all episodes
/// (of any lengths) batched, in chunks that keep the search within `memory_budget` bytes
/// (0: half the free device memory). Only in builds with CUDA (src/cuda).
std::vector<std::uint64_t> count_on_gpu(const NeuronTimes& times, std::span<const Episode> episodes, Counter counter,
                                        std::size_t memory_budget, Progress* progress);

}  // namespace spikeminer::mining::detail
