// Level 2's sieve (see pair_bound.hpp).
#include "pair_bound.hpp"

#include "cofiring_layout.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <algorithm>
#include <tuple>

namespace spikeminer::mining::detail {
namespace {

// The distinct intervals in groups the co-firing engine counts at once: each sorted, its
// intervals not overlapping, at most kMaxIntervals of them.
std::vector<std::vector<Interval>> engine_groups(std::vector<Interval> ranges) {
    std::sort(ranges.begin(), ranges.end());
    ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
    std::vector<std::vector<Interval>> groups;
    for (const Interval& range : ranges) {
        const auto fits = [&](const std::vector<Interval>& g) {
            return g.size() < static_cast<std::size_t>(kMaxIntervals) && g.back().hi <= range.lo;
        };
        const auto group = std::find_if(groups.begin(), groups.end(), fits);
        if (group == groups.end()) groups.push_back({range}); else group->push_back(range);
    }
    return groups;
}

// Bytes of the engine's counts over the whole recording for a group (a count and a bin
// count per ordered pair of neurons and lag slot).
double engine_bytes(std::size_t neurons, std::size_t intervals) {
    const auto n = static_cast<double>(neurons);
    return n * n * static_cast<double>(2 * intervals + 2) * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
}

}  // namespace

std::optional<PairsKept> pairs_that_can_reach(const SpikeTrains& trains, const std::vector<NeuronId>& neurons, std::uint64_t threshold,
                                              const std::vector<Interval>& intervals, const CountOptions& count,
                                              const std::optional<ChanceTest>& test, std::size_t memory_budget,
                                              const WholeRecordingCounts* counted) {
    const std::vector<std::vector<Interval>> groups = engine_groups(intervals);
    std::size_t widest = 0;
    for (const auto& group : groups) widest = std::max(widest, group.size());
    const double bytes = engine_bytes(trains.num_neurons(), widest) +
                         (counted != nullptr ? static_cast<double>(counted->counts.size() * sizeof(std::uint64_t)) : 0.0);
    if (bytes > static_cast<double>(memory_budget)) {
        if (!test) return std::nullopt;
        throw MemoryBudgetExceeded("its test against chance of " + std::to_string(trains.num_neurons()) + " neurons needs " +
                                   format_bytes(bytes) + " of pair counts, over the memory budget (" +
                                   format_bytes(static_cast<double>(memory_budget)) + ")");
    }
    // Where each neuron and interval comes in the candidates' order (none: not mined).
    constexpr std::size_t kNone = ~std::size_t{0};
    std::vector<std::size_t> rank(trains.num_neurons(), kNone);
    for (std::size_t r = 0; r < neurons.size(); ++r) rank[neurons[r]] = r;
    const auto interval_rank = [&](const Interval& gap) {
        return static_cast<std::size_t>(std::find(intervals.begin(), intervals.end(), gap) - intervals.begin());
    };
    // What passed: (rank of the first neuron, of the second, of the interval) and its group.
    std::vector<std::pair<std::tuple<std::size_t, std::size_t, std::size_t>, std::size_t>> passed;
    PairsKept out;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const std::vector<Interval>& group = groups[g];
        CofiringOptions options;
        options.lags.intervals = group;
        options.backend = count.backend;
        options.threads = count.threads;
        options.memory_budget = memory_budget;
        options.progress = count.progress;
        options.test.min_count = threshold;
        if (test) {
            options.lags.baseline = test->baseline;
            options.test.q = test->q / static_cast<double>(groups.size());
            options.test.correction = test->correction;
        } else {
            // The engine needs a baseline beyond the ranges; with the test off it decides nothing.
            options.lags.baseline = {group.back().hi, group.back().hi + 1};
            options.test.q = 1;
        }
        const CofiringWindow whole = cofiring_whole_recording(trains, options, counted);
        out.group_tests.push_back(whole.tests);
        for (const CofiringEdge& e : whole.edges) {
            if (rank[e.a] == kNone || rank[e.b] == kNone) continue;
            passed.push_back({{rank[e.a], rank[e.b], interval_rank(group[static_cast<std::size_t>(e.interval)])}, g});
        }
    }
    if (!test) {  // a neuron twice: not bounded
        for (std::size_t r = 0; r < neurons.size(); ++r) {
            for (std::size_t k = 0; k < intervals.size(); ++k) passed.push_back({{r, r, k}, 0});
        }
    }
    std::sort(passed.begin(), passed.end());
    for (const auto& [key, group] : passed) {
        const auto [a, b, k] = key;
        out.episodes.push_back(Episode{{neurons[a], neurons[b]}, {intervals[k]}});
        out.group.push_back(group);
    }
    return out;
}

}  // namespace spikeminer::mining::detail
