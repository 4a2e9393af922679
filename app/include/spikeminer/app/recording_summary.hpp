#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <string>
#include <vector>

namespace spikeminer {

/// Per-neuron line of a recording summary.
struct NeuronSummary {
    std::string label;
    std::size_t spikes = 0;
    double rate_hz = 0;  ///< spikes over the recording span
};

/// What `spikeminer info` and the GUI show about a recording.
struct RecordingSummary {
    std::size_t neurons = 0;
    std::size_t active_neurons = 0;  ///< neurons with at least one spike
    std::size_t spikes = 0;
    double start_s = 0;
    double end_s = 0;
    double duration_s = 0;
    double mean_rate_hz = 0;  ///< mean over neurons of spikes / duration
    double min_rate_hz = 0;
    double max_rate_hz = 0;
    std::size_t duplicates = 0;
    bool sorted_on_load = false;
    std::string tick;
    std::int64_t ticks_per_second = 0;
    std::vector<NeuronSummary> per_neuron;
};

/// Counts and rates of a recording.
RecordingSummary summarize(const SpikeTrains& trains);

}  // namespace spikeminer
