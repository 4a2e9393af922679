#pragma once

#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/significance.hpp"

#include <vector>

namespace spikeminer::pipeline {

/// When an assembly is active within `span`: the times at which more than half of its
/// members fire within `within` ticks of each other (the time of the group's first spike;
/// groups do not overlap, each starts after the last one's spikes).
std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within);

/// Each group of neurons' number of activations within its span, against the same number
/// in surrogates 0, 1, ... (mining::test_against_surrogates, corrected across the groups):
/// surrogate s is made of the neurons of the groups still tested only. `progress`
/// (optional) shows the surrogates and its Cancel stops the work.
std::vector<mining::SurrogateSignificance> test_activations(const SpikeTrains& trains, const std::vector<std::vector<NeuronId>>& members,
                                                            const std::vector<TimeSpan>& spans, Tick within,
                                                            const mining::SignificanceOptions& options, Progress* progress);

}  // namespace spikeminer::pipeline
