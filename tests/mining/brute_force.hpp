#pragma once
// An oracle written from the definition of the count, independent of the production
// counters: every occurrence is enumerated by recursion over the stream, and the largest
// set of pairwise non-overlapped occurrences is found exactly by dynamic programming
// (no greedy argument is assumed). Tiny inputs only.

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/episode.hpp"

#include <cstdint>
#include <vector>

namespace spikeminer::test {

/// One occurrence: stream positions node by node, and its first and last times.
struct BruteOccurrence {
    std::vector<std::uint32_t> events;
    Tick start = 0;
    Tick end = 0;
};

/// Every occurrence of `episode` in the stream (events x1..xN with neuron e_k at x_k and
/// lo_k < t(x_{k+1}) - t(x_k) <= hi_k), in no particular order.
std::vector<BruteOccurrence> all_occurrences(const SpikeTrains& trains, const mining::Episode& episode);

/// The size of the largest set of pairwise non-overlapped [start, end] spans (two spans
/// are non-overlapped when one ends strictly before the other starts), by dynamic
/// programming over the spans sorted by end.
std::uint64_t max_non_overlapped(std::vector<std::pair<Tick, Tick>> spans);

/// The same by trying every subset; at most 20 spans.
std::uint64_t max_non_overlapped_exhaustive(const std::vector<std::pair<Tick, Tick>>& spans);

/// The count of `episode` from the definition.
std::uint64_t brute_count(const SpikeTrains& trains, const mining::Episode& episode);

/// The (start, end) spans of the greedy schedule of the definition's documentation: at
/// each step, among occurrences starting after the last chosen end, the one that ends
/// first and, among those, starts last.
std::vector<std::pair<Tick, Tick>> greedy_spans(const std::vector<BruteOccurrence>& occurrences);

struct BruteFrequent {
    mining::Episode episode;
    std::uint64_t count = 0;
    bool operator==(const BruteFrequent&) const = default;
};

/// Every episode of length 1..max_level over `alphabet` (every neuron sequence, repeats
/// allowed, and every choice of interval for each gap) whose brute-force count reaches
/// the threshold of its level (`thresholds`, the last repeating). Sorted by episode.
std::vector<BruteFrequent> brute_mine(const SpikeTrains& trains, const std::vector<NeuronId>& alphabet,
                                      const std::vector<mining::Interval>& intervals,
                                      const std::vector<std::uint64_t>& thresholds, std::size_t max_level);

}  // namespace spikeminer::test
