// Level 2's sieve (see pair_bound.hpp).
#include "pair_bound.hpp"

#include "spikeminer/mining/cofiring.hpp"

#include <algorithm>
#include <tuple>

namespace spikeminer::mining::detail {

std::optional<std::vector<Episode>> pairs_that_can_reach(const SpikeTrains& trains, const std::vector<Episode>& candidates,
                                                         std::uint64_t threshold, const std::vector<Interval>& intervals,
                                                         const CountOptions& count) {
    std::vector<Interval> ranges = intervals;
    std::sort(ranges.begin(), ranges.end());
    ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
    for (std::size_t k = 1; k < ranges.size(); ++k) {
        if (ranges[k].lo < ranges[k - 1].hi) return std::nullopt;
    }
    // Each ordered pair of neurons: a count per range each way and the baseline's two.
    const auto neurons = static_cast<double>(trains.num_neurons());
    if (neurons * neurons * static_cast<double>(2 * ranges.size() + 2) * sizeof(std::uint32_t) > 1024.0 * 1024 * 1024) return std::nullopt;

    CofiringOptions options;
    options.lags.intervals = ranges;
    // The engine needs a baseline beyond the ranges; with the test off it decides nothing.
    options.lags.baseline = {ranges.back().hi, ranges.back().hi + 1};
    options.test.q = 1;
    options.test.min_count = threshold;
    options.backend = count.backend;
    options.threads = count.threads;
    options.progress = count.progress;
    const CofiringWindow whole = cofiring_whole_recording(trains, options);

    // The pairs that reach the threshold at a range, sorted as the edges are.
    std::vector<std::tuple<NeuronId, NeuronId, int>> reaching;
    reaching.reserve(whole.edges.size());
    for (const CofiringEdge& e : whole.edges) reaching.emplace_back(e.a, e.b, e.interval);
    std::vector<Episode> kept;
    for (const Episode& c : candidates) {
        const NeuronId a = c.neurons[0];
        const NeuronId b = c.neurons[1];
        const auto range = static_cast<int>(std::lower_bound(ranges.begin(), ranges.end(), c.gaps[0]) - ranges.begin());
        if (a == b || std::binary_search(reaching.begin(), reaching.end(), std::tuple(a, b, range))) kept.push_back(c);
    }
    return kept;
}

}  // namespace spikeminer::mining::detail
