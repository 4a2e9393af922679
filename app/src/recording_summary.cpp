#include "spikeminer/app/recording_summary.hpp"

#include <algorithm>

namespace spikeminer {

RecordingSummary summarize(const SpikeTrains& trains) {
    RecordingSummary summary;
    const TimeBase& time_base = trains.time_base();
    summary.neurons = trains.num_neurons();
    summary.spikes = trains.num_spikes();
    summary.start_s = time_base.to_seconds(trains.span().start);
    summary.end_s = time_base.to_seconds(trains.span().end);
    summary.duration_s = time_base.to_seconds(trains.span().length());
    summary.duplicates = trains.duplicates();
    summary.sorted_on_load = trains.was_sorted_on_load();
    summary.tick = time_base.describe();
    summary.ticks_per_second = time_base.ticks_per_second;
    double rate_sum = 0;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        NeuronSummary neuron{trains.label(n), trains.spike_count(n), 0.0};
        if (summary.duration_s > 0) neuron.rate_hz = static_cast<double>(neuron.spikes) / summary.duration_s;
        summary.active_neurons += neuron.spikes > 0 ? 1 : 0;
        rate_sum += neuron.rate_hz;
        summary.min_rate_hz = n == 0 ? neuron.rate_hz : std::min(summary.min_rate_hz, neuron.rate_hz);
        summary.max_rate_hz = std::max(summary.max_rate_hz, neuron.rate_hz);
        summary.per_neuron.push_back(std::move(neuron));
    }
    if (summary.neurons > 0) summary.mean_rate_hz = rate_sum / static_cast<double>(summary.neurons);
    return summary;
}

}  // namespace spikeminer
