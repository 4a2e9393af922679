#pragma once

#include "spikeminer/core/neuron_times.hpp"

#include "spikeminer/mining/episode.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// The streaming finite-state counter (count_fsm) on the GPU, one thread per episode: the
/// papers' first approach, for many short episodes. Each thread keeps at most
/// kFsmGpuMaxNodes nodes and kFsmGpuRing end times per node; episodes longer, or whose
/// partial occurrences outgrow a ring (bursts), are counted by count_fsm on the CPU, so
/// the counts are always exact. `d_times` and `d_offsets` are the NeuronTimes on the device.
std::vector<std::uint64_t> count_fsm_on_gpu(const Tick* d_times, const std::uint64_t* d_offsets, const NeuronTimes& times,
                                            std::span<const Episode> episodes);

inline constexpr std::size_t kFsmGpuMaxNodes = 16;
inline constexpr std::size_t kFsmGpuRing = 16;

}  // namespace spikeminer::mining::detail
