#include "spikeminer/core/spike_trains.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include "parallel_sort.hpp"

#include <algorithm>
#include <cstdint>

namespace spikeminer {
namespace {

bool spike_less(const Spike& a, const Spike& b) {
    return a.time != b.time ? a.time < b.time : a.neuron < b.neuron;
}

bool same_spike(const Spike& a, const Spike& b) { return a.time == b.time && a.neuron == b.neuron; }

// Refuses a time beyond ±kMaxRecordingTick, naming what holds it.
void check_tick(Tick tick, const std::string& what) {
    if (tick > kMaxRecordingTick || tick < -kMaxRecordingTick) {
        throw Error(what + " at tick " + std::to_string(tick) + " is beyond the range of a recording (±(2^62 - 1) ticks)");
    }
}

void check_table(const NeuronTable& neurons) {
    const std::size_t n = neurons.labels.size();
    if (!neurons.groups.empty() && neurons.groups.size() != n) {
        throw Error("neuron table: " + std::to_string(neurons.groups.size()) + " electrode groups for " +
                    std::to_string(n) + " neurons");
    }
    if (!neurons.positions.empty() && neurons.positions.size() != n) {
        throw Error("neuron table: " + std::to_string(neurons.positions.size()) + " electrode positions for " + std::to_string(n) +
                    " neurons");
    }
    if (!neurons.observed.empty() && neurons.observed.size() != n) {
        throw Error("neuron table: observation intervals for " + std::to_string(neurons.observed.size()) +
                    " neurons, but there are " + std::to_string(n));
    }
    for (std::size_t i = 0; i < neurons.observed.size(); ++i) {
        for (const TimeSpan& span : neurons.observed[i]) {
            check_tick(span.start, "an observation interval of neuron " + in_quotes(neurons.labels[i]));
            check_tick(span.end, "an observation interval of neuron " + in_quotes(neurons.labels[i]));
        }
    }
}

}  // namespace

SpikeTrains SpikeTrains::from_spikes(std::vector<Spike> spikes, NeuronTable neurons, TimeBase time_base,
                                     DuplicatePolicy duplicates) {
    check_table(neurons);
    if (spikes.size() >= UINT32_MAX) {
        throw Error(std::to_string(spikes.size()) + " spikes: at most 2^32 - 1 spikes fit in one recording");
    }
    const std::size_t num_neurons = neurons.labels.size();
    for (const Spike& spike : spikes) {
        if (spike.neuron >= num_neurons) {
            throw Error("spike of neuron index " + std::to_string(spike.neuron) + ", but only " +
                        std::to_string(num_neurons) + " neurons are declared");
        }
        if (spike.time > kMaxRecordingTick || spike.time < -kMaxRecordingTick) {
            check_tick(spike.time, "a spike of neuron " + in_quotes(neurons.labels[spike.neuron]));
        }
    }

    SpikeTrains trains;
    trains.time_base_ = time_base;
    trains.neurons_ = std::move(neurons);
    if (!std::is_sorted(spikes.begin(), spikes.end(), spike_less)) {
        detail::parallel_sort(spikes, spike_less);
        trains.sorted_on_load_ = true;
    }
    std::size_t adjacent_equal = 0;
    for (std::size_t i = 1; i < spikes.size(); ++i) adjacent_equal += same_spike(spikes[i - 1], spikes[i]) ? 1 : 0;
    trains.duplicates_ = adjacent_equal;
    if (duplicates == DuplicatePolicy::Merge && adjacent_equal > 0) {
        spikes.erase(std::unique(spikes.begin(), spikes.end(), same_spike), spikes.end());
    }

    const std::size_t count = spikes.size();
    trains.times_.resize(count);
    trains.neuron_of_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        trains.times_[i] = spikes[i].time;
        trains.neuron_of_[i] = spikes[i].neuron;
    }
    spikes.clear();
    spikes.shrink_to_fit();

    // Counting sort of stream positions by neuron; positions stay ascending within a neuron.
    trains.neuron_offsets_.assign(num_neurons + 1, 0);
    for (NeuronId n : trains.neuron_of_) ++trains.neuron_offsets_[n + 1];
    for (std::size_t n = 0; n < num_neurons; ++n) trains.neuron_offsets_[n + 1] += trains.neuron_offsets_[n];
    trains.spike_index_.resize(count);
    std::vector<std::uint64_t> cursor(trains.neuron_offsets_.begin(), trains.neuron_offsets_.end() - 1);
    for (std::size_t i = 0; i < count; ++i) {
        trains.spike_index_[cursor[trains.neuron_of_[i]]++] = static_cast<std::uint32_t>(i);
    }

    if (count > 0) trains.span_ = TimeSpan{trains.times_.front(), trains.times_.back() + 1};
    return trains;
}

std::span<const std::uint32_t> SpikeTrains::spikes_of(NeuronId n) const {
    if (n >= num_neurons()) {
        throw Error("neuron index " + std::to_string(n) + " out of range (" + std::to_string(num_neurons()) +
                    " neurons)");
    }
    const auto begin = neuron_offsets_[n];
    return {spike_index_.data() + begin, neuron_offsets_[n + 1] - begin};
}

void SpikeTrains::set_span(TimeSpan span) {
    check_tick(span.start, "the recording's start");
    if (span.end < span.start) {
        throw Error("recording span ends (tick " + std::to_string(span.end) + ") before it starts (tick " +
                    std::to_string(span.start) + ")");
    }
    if (span.end > span.start) check_tick(span.end - 1, "the recording's last tick");  // the end is exclusive
    span_ = span;
}

NeuronId SpikeTrains::find_label(const std::string& label) const {
    const auto& labels = neurons_.labels;
    const auto it = std::find(labels.begin(), labels.end(), label);
    if (it == labels.end()) throw Error("no neuron is labelled " + in_quotes(label));
    return static_cast<NeuronId>(it - labels.begin());
}

}  // namespace spikeminer
