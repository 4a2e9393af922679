#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <vector>

namespace spikeminer::pipeline {

/// When an assembly is active within `span`: the times at which more than half of its
/// members fire within `within` ticks of each other (the time of the group's first spike;
/// groups do not overlap, each starts after the last one's spikes).
std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within);

}  // namespace spikeminer::pipeline
