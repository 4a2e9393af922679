#pragma once
// The spikes of a live session: those that came, put in (time, unit) order once no
// earlier spike can still arrive (`lateness` after the latest one seen), and the parts of
// them the stages read.

#include "spikeminer/core/spike_trains.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace spikeminer::live {

class LiveRecording {
public:
    explicit LiveRecording(Tick lateness) : lateness_(lateness) {}

    /// Adds spikes as they came (provisional unit ids). A spike before what is already in
    /// order came too late: it is counted (late()) and taken out of `spikes`.
    void add(std::vector<Spike>& spikes);
    /// Puts in order the spikes that no spike still to come can precede: all before the
    /// latest seen minus the lateness, or all of them at the end of the stream (`ended`).
    /// Returns where the ordered spikes now end (every spike before it is in).
    Tick settle(bool ended);

    [[nodiscard]] bool empty() const { return times_.empty(); }
    /// The first spike in order: where the windows start.
    [[nodiscard]] Tick origin() const { return times_.front(); }
    /// Every spike before this time is in order (and no later one).
    [[nodiscard]] Tick settled() const { return settled_; }
    /// The latest time seen.
    [[nodiscard]] Tick newest() const { return newest_; }
    /// Spikes in order.
    [[nodiscard]] std::size_t size() const { return times_.size(); }
    /// Spikes taken: in order, or waiting for the lateness to pass.
    [[nodiscard]] std::size_t taken() const { return times_.size() + pending_.size(); }
    [[nodiscard]] std::size_t late() const { return late_; }
    /// The greatest common divisor of the steps between spikes in order (at least 1): the
    /// time grid, as the co-firing counter finds it in a finished recording.
    [[nodiscard]] Tick grid() const { return grid_ == 0 ? 1 : grid_; }

    /// The spikes in order within [from, to), as trains of `labels` (the provisional ids'
    /// labels), with the span [span_start, to): the span is the recording's to that point.
    [[nodiscard]] SpikeTrains part(Tick from, Tick to, Tick span_start, const std::vector<std::string>& labels,
                                   const TimeBase& time_base) const;
    /// Every spike in order, as a reader would give them: units in the order LabelIndexer
    /// gives `labels` (integers by number), the span from the first spike to the last.
    /// `remap` gets each provisional id's id there.
    [[nodiscard]] SpikeTrains whole(const std::vector<std::string>& labels, const TimeBase& time_base, std::vector<NeuronId>& remap) const;

private:
    Tick lateness_;
    std::vector<Tick> times_;        // in (time, unit) order
    std::vector<NeuronId> neurons_;
    std::vector<Spike> pending_;     // come, not yet in order
    Tick settled_ = 0;
    bool any_settled_ = false;
    Tick newest_ = 0;
    bool any_seen_ = false;
    Tick grid_ = 0;
    std::size_t late_ = 0;
};

}  // namespace spikeminer::live
