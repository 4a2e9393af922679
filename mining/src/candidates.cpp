// Apriori candidate generation for serial episodes with intervals.
#include "spikeminer/mining/mine.hpp"

#include <algorithm>
#include <map>

namespace spikeminer::mining {
namespace {

// Level k+1's joins by prefix: the level-k episodes b under b without its last node.
std::map<Episode, std::vector<const Episode*>> by_prefix(const std::vector<Episode>& frequent) {
    std::map<Episode, std::vector<const Episode*>> prefixes;
    for (const Episode& b : frequent) prefixes[drop_last(b)].push_back(&b);
    return prefixes;
}

}  // namespace

std::vector<Episode> join_candidates(const std::vector<Episode>& frequent) {
    // a + last node of b, whenever a without its first node is b without its last.
    const auto prefixes = by_prefix(frequent);
    std::vector<Episode> candidates;
    for (const Episode& a : frequent) {
        const auto match = prefixes.find(drop_first(a));
        if (match == prefixes.end()) continue;
        for (const Episode* b : match->second) {
            Episode joined = a;
            joined.neurons.push_back(b->neurons.back());
            joined.gaps.push_back(b->gaps.back());
            candidates.push_back(std::move(joined));
        }
    }
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

std::uint64_t count_next_candidates(std::size_t level, const std::vector<Episode>& frequent, const std::vector<Interval>& intervals) {
    if (level == 1) return static_cast<std::uint64_t>(frequent.size()) * frequent.size() * intervals.size();
    const auto prefixes = by_prefix(frequent);
    std::uint64_t joins = 0;
    for (const Episode& a : frequent) {
        const auto match = prefixes.find(drop_first(a));
        if (match != prefixes.end()) joins += match->second.size();
    }
    return joins;
}

std::size_t candidate_bytes(std::size_t nodes) {
    // The episode and its two arrays (with the allocator's headers), the counters' per
    // candidate work (count, extension, order, greedy state) and its test (lag counts,
    // p-value, result), with room for what the maps and sorts take besides.
    const std::size_t episode = sizeof(Episode) + nodes * sizeof(NeuronId) + (nodes - 1) * sizeof(Interval) + 2 * 16;
    const std::size_t work = 2 * sizeof(std::uint64_t) + 24 + sizeof(std::uint32_t) + 16;
    const std::size_t test = sizeof(LagCounts) + sizeof(double) + sizeof(ChanceResult);
    return 2 * (episode + work + test);
}

}  // namespace spikeminer::mining
