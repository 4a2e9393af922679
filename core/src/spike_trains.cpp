#include "spikeminer/core/spike_trains.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include "parallel_sort.hpp"
#include "spike_stream_scans.hpp"

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
    SpikeColumns columns = detail::split_columns(spikes);
    spikes = std::vector<Spike>();  // gone before the columns are sorted: at most two copies at once
    return from_columns(std::move(columns), std::move(neurons), time_base, duplicates);
}

SpikeTrains SpikeTrains::from_columns(SpikeColumns columns, NeuronTable neurons, TimeBase time_base,
                                      DuplicatePolicy duplicates) {
    check_table(neurons);
    const std::size_t count = columns.times.size();
    if (columns.neurons.size() != count) {
        throw Error(std::to_string(count) + " spike times but " + std::to_string(columns.neurons.size()) + " neurons of spikes");
    }
    if (count >= UINT32_MAX) {
        throw Error(std::to_string(count) + " spikes: at most 2^32 - 1 spikes fit in one recording");
    }
    const std::size_t num_neurons = neurons.labels.size();
    if (const std::size_t bad = detail::first_invalid_spike(columns, num_neurons, kMaxRecordingTick); bad < count) {
        const NeuronId neuron = columns.neurons[bad];
        if (neuron >= num_neurons) {
            throw Error("spike of neuron index " + std::to_string(neuron) + ", but only " + std::to_string(num_neurons) +
                        " neurons are declared");
        }
        check_tick(columns.times[bad], "a spike of neuron " + in_quotes(neurons.labels[neuron]));
    }

    SpikeTrains trains;
    trains.time_base_ = time_base;
    trains.neurons_ = std::move(neurons);
    if (!detail::in_stream_order(columns)) {
        std::vector<Spike> spikes = detail::zip_columns(columns);
        columns = {};
        detail::parallel_sort(spikes, spike_less);
        columns = detail::split_columns(spikes);
        trains.sorted_on_load_ = true;
    }
    trains.duplicates_ = detail::adjacent_duplicates(columns);
    if (duplicates == DuplicatePolicy::Merge && trains.duplicates_ > 0) {
        std::vector<Spike> spikes = detail::zip_columns(columns);
        columns = {};
        spikes.erase(std::unique(spikes.begin(), spikes.end(), same_spike), spikes.end());
        columns = detail::split_columns(spikes);
    }
    trains.stream_ = std::move(columns);
    detail::index_by_neuron(trains.stream_.neurons, num_neurons, trains.neuron_offsets_, trains.spike_index_);
    if (!trains.stream_.times.empty()) trains.span_ = TimeSpan{trains.stream_.times.front(), trains.stream_.times.back() + 1};
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

std::span<const std::uint32_t> SpikeTrains::spikes_of(NeuronId n, TimeSpan span) const {
    const std::span<const std::uint32_t> of = spikes_of(n);
    const auto before = [this](std::uint32_t i, Tick t) { return stream_.times[i] < t; };
    const auto first = std::lower_bound(of.begin(), of.end(), span.start, before);
    const auto last = std::lower_bound(first, of.end(), std::max(span.start, span.end), before);
    return {first, last};
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
