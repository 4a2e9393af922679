// Level 2's sieve: the co-firing engine's count of every pair of neurons at once.
#pragma once

#include "spikeminer/mining/chance.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/count.hpp"

#include <optional>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// What the sieve lets through of level 2's candidates, in the order of every ordered pair
/// of `neurons` (first neuron, second, then interval, each in the order given), and with a
/// test the group of intervals each was tested in and each group's tests (corrected
/// together, at the test's q over the groups).
struct PairsKept {
    std::vector<Episode> episodes;
    std::vector<std::size_t> group;
    std::vector<std::uint64_t> group_tests;
};

/// Level 2's candidates (A -gap-> B, A and B of `neurons`) that the co-firing engine lets
/// through, from its count of every pair of neurons at once over the whole recording
/// (mining/cofiring.hpp), without making the others:
/// - without a test, those whose pairs of spikes at the gap reach `threshold`, and those of
///   one neuron twice: whatever occurrences a counter takes, each is one spike of A and one
///   of B, so the number of all such pairs bounds the count from above;
/// - with a test, those of two neurons whose timing beats chance (the engine's edge test
///   at the test's baseline, rate and correction, with the threshold as its least count):
///   the candidates that can beat chance on both counts (chance.hpp), since a larger
///   p-value passes the correction less.
/// The intervals are counted in groups the engine takes (sorted, not overlapping, at most
/// kMaxIntervals a group); with a test its q is shared evenly among the groups (so the
/// false discovery rate of all of them stays within q). When the counts would take more
/// than `memory_budget` bytes: nullopt without a test (the bound is not worked out),
/// MemoryBudgetExceeded saying what would fit with one (the counts `counted` held beside
/// them). A group's lag slots that `counted` makes up are read from it, only the others
/// counted (cofiring_whole_recording).
std::optional<PairsKept> pairs_that_can_reach(const SpikeTrains& trains, const std::vector<NeuronId>& neurons, std::uint64_t threshold,
                                              const std::vector<Interval>& intervals, const CountOptions& count,
                                              const std::optional<ChanceTest>& test, std::size_t memory_budget,
                                              const WholeRecordingCounts* counted = nullptr);

}  // namespace spikeminer::mining::detail
