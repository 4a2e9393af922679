// Level 2's sieve: a bound on every pair episode's count from the co-firing engine.
#pragma once

#include "spikeminer/mining/count.hpp"

#include <optional>
#include <vector>

namespace spikeminer::mining::detail {

/// The level-2 candidates (A -gap-> B) that can reach `threshold`, in their order: those of
/// one neuron twice, and those of two whose pairs of spikes at the gap reach it. Whatever
/// occurrences a counter takes, each is one spike of A and one of B, so the number of all
/// such pairs (counted for every pair of neurons at once, mining/cofiring.hpp) bounds the
/// count from above, and a candidate under the bound cannot be frequent. nullopt when the
/// bound is not worked out: the intervals overlap (the co-firing engine counts disjoint
/// ranges), or its counts for this many neurons would take over 1 GiB.
std::optional<std::vector<Episode>> pairs_that_can_reach(const SpikeTrains& trains, const std::vector<Episode>& candidates,
                                                         std::uint64_t threshold, const std::vector<Interval>& intervals,
                                                         const CountOptions& count);

}  // namespace spikeminer::mining::detail
