// Apriori candidate generation for serial episodes with intervals.
#include "spikeminer/mining/mine.hpp"

#include <algorithm>
#include <map>

namespace spikeminer::mining {
std::vector<Episode> join_candidates(const std::vector<Episode>& frequent) {
    // a + last node of b, whenever a without its first node is b without its last.
    std::map<Episode, std::vector<const Episode*>> by_prefix;
    for (const Episode& b : frequent) by_prefix[drop_last(b)].push_back(&b);
    std::vector<Episode> candidates;
    for (const Episode& a : frequent) {
        const auto match = by_prefix.find(drop_first(a));
        if (match == by_prefix.end()) continue;
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

}  // namespace spikeminer::mining
