// See live_recording.hpp.
#include "live_recording.hpp"

#include "spikeminer/core/label_indexer.hpp"

#include <algorithm>
#include <numeric>

namespace spikeminer::live {

void LiveRecording::add(std::vector<Spike>& spikes) {
    const std::size_t before = spikes.size();
    if (any_settled_) std::erase_if(spikes, [&](const Spike& s) { return s.time < settled_; });
    late_ += before - spikes.size();
    for (const Spike& s : spikes) {
        pending_.push_back(s);
        newest_ = any_seen_ ? std::max(newest_, s.time) : s.time;
        any_seen_ = true;
    }
}

Tick LiveRecording::settle(bool ended) {
    if (!any_seen_) return settled_;
    const Tick until = ended ? newest_ + 1 : newest_ - lateness_;
    if (any_settled_ && until <= settled_) return settled_;
    const auto by_time = [](const Spike& a, const Spike& b) { return a.time != b.time ? a.time < b.time : a.neuron < b.neuron; };
    std::sort(pending_.begin(), pending_.end(), by_time);
    const auto ready = std::partition_point(pending_.begin(), pending_.end(), [&](const Spike& s) { return s.time < until; });
    for (auto s = pending_.begin(); s != ready; ++s) {
        if (!times_.empty() && s->time != times_.back()) grid_ = std::gcd(grid_, s->time - times_.back());
        times_.push_back(s->time);
        neurons_.push_back(s->neuron);
    }
    pending_.erase(pending_.begin(), ready);
    settled_ = until;
    any_settled_ = true;
    return settled_;
}

SpikeTrains LiveRecording::part(Tick from, Tick to, Tick span_start, const std::vector<std::string>& labels,
                                const TimeBase& time_base) const {
    const auto first = std::lower_bound(times_.begin(), times_.end(), from) - times_.begin();
    const auto last = std::lower_bound(times_.begin(), times_.end(), to) - times_.begin();
    std::vector<Tick> times(times_.begin() + first, times_.begin() + last);
    std::vector<NeuronId> neurons(neurons_.begin() + first, neurons_.begin() + last);
    NeuronTable table;
    table.labels = labels;
    SpikeTrains trains = SpikeTrains::from_columns(SpikeColumns::own(std::move(times), std::move(neurons)), std::move(table), time_base);
    trains.set_span({span_start, to});
    return trains;
}

SpikeTrains LiveRecording::whole(const std::vector<std::string>& labels, const TimeBase& time_base, std::vector<NeuronId>& remap) const {
    LabelIndexer indexer;
    for (const std::string& label : labels) indexer.intern(label);
    LabelIndexer::Result ordered = indexer.finish();
    remap = ordered.remap;
    std::vector<NeuronId> neurons(neurons_.size());
    std::transform(neurons_.begin(), neurons_.end(), neurons.begin(), [&](NeuronId n) { return remap[n]; });
    NeuronTable table;
    table.labels = std::move(ordered.labels);
    return SpikeTrains::from_columns(SpikeColumns::own(times_, std::move(neurons)), std::move(table), time_base);
}

}  // namespace spikeminer::live
