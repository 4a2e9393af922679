// The counts behind the test against chance (chance.hpp): pairs of a prefix's ends and a
// neuron's spikes at a delay and at the baseline lags.
#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/chance.hpp"

#include <cstdint>
#include <span>

namespace spikeminer::mining::detail {

/// The pairs of sorted `ends` and sorted `spikes` at `gap`, at its mirror before the ends and
/// at `baseline` (both ways): one pass with a galloping cursor per bound.
LagCounts count_lags(std::span<const Tick> ends, std::span<const Tick> spikes, const Interval& gap, const Interval& baseline);

}  // namespace spikeminer::mining::detail
