#pragma once

#include "spikeminer/app/pipeline/assembly_activity.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/significance.hpp"

#include <vector>

namespace spikeminer::pipeline {

/// Each group of neurons' number of activations (over the whole recording) within its periods, against the same number
/// in surrogates 0, 1, ... (mining::test_against_surrogates, corrected across the groups):
/// surrogate s is made of the neurons of the groups still tested only. `progress`
/// (optional) shows the surrogates and its Cancel stops the work.
std::vector<mining::SurrogateSignificance> test_activations(const SpikeTrains& trains, const std::vector<std::vector<NeuronId>>& members,
                                                            const std::vector<std::vector<TimeSpan>>& periods, Tick within,
                                                            const mining::SignificanceOptions& options, Progress* progress);

}  // namespace spikeminer::pipeline
