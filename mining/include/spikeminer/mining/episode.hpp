#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <string>
#include <vector>

namespace spikeminer::mining {

/// An inter-event constraint (lo, hi] in ticks: lo < t(next) - t(prev) <= hi, 0 <= lo < hi.
struct Interval {
    Tick lo = 0;
    Tick hi = 0;
    bool operator==(const Interval&) const = default;
    auto operator<=>(const Interval&) const = default;
};

/// A serial episode e1 -(lo1,hi1]-> e2 -(lo2,hi2]-> ... : neurons (repeats allowed) and one
/// interval per gap (gaps.size() == neurons.size() - 1).
struct Episode {
    std::vector<NeuronId> neurons;
    std::vector<Interval> gaps;
    [[nodiscard]] std::size_t size() const { return neurons.size(); }
    bool operator==(const Episode&) const = default;
    auto operator<=>(const Episode&) const = default;
};

/// The episode without its first node and first interval (size() >= 2).
Episode drop_first(const Episode& episode);
/// The episode without its last node and last interval: its prefix (size() >= 2).
Episode drop_last(const Episode& episode);

/// "A -(5,10]-> B -(0,5]-> C" with the trains' labels, bounds in `unit` (s, ms, us, ns).
std::string format_episode(const Episode& episode, const SpikeTrains& trains, const std::string& unit = "ms");

/// Parses the format above; neurons by label, bounds in `unit`, converted exactly to the
/// trains' ticks. Throws UsageError quoting the text (unknown label, lo >= hi, ...).
Episode parse_episode(const std::string& text, const SpikeTrains& trains, const std::string& unit = "ms");

/// Parses an interval list "0-5,5-10" (bounds in `unit`) into (0,5],(5,10]; throws
/// UsageError for an empty list, lo >= hi or a bound that is not a whole number of ticks.
std::vector<Interval> parse_intervals(const std::string& text, const TimeBase& time_base, const std::string& unit = "ms");

/// Checks an episode against the trains (neuron range, interval count, 0 <= lo < hi).
void validate(const Episode& episode, const SpikeTrains& trains);

}  // namespace spikeminer::mining
