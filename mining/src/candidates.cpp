// Apriori candidate generation for serial episodes with intervals.
#include "spikeminer/mining/mine.hpp"

#include <algorithm>
#include <map>

namespace spikeminer::mining {
namespace {

// Episodes looked at between two checks for Cancel.
constexpr std::size_t kCheckEvery = std::size_t{1} << 12;

void check_now_and_then(const Progress* progress, std::size_t& looked) {
    if (progress != nullptr && looked++ % kCheckEvery == 0) progress->check_cancelled();
}

// Level k+1's joins by prefix: the level-k episodes b under b without its last node.
std::map<Episode, std::vector<const Episode*>> by_prefix(const std::vector<Episode>& frequent, const Progress* progress) {
    std::map<Episode, std::vector<const Episode*>> prefixes;
    std::size_t looked = 0;
    for (const Episode& b : frequent) {
        check_now_and_then(progress, looked);
        prefixes[drop_last(b)].push_back(&b);
    }
    return prefixes;
}

// std::sort in runs, then merges, with a check for Cancel between steps: a sort of millions
// of episodes takes seconds.
void sort_cancellable(std::vector<Episode>& episodes, const Progress* progress) {
    const std::size_t n = episodes.size();
    const auto at = [&](std::size_t i) { return episodes.begin() + static_cast<std::ptrdiff_t>(std::min(i, n)); };
    const auto check = [&] {
        if (progress != nullptr) progress->check_cancelled();
    };
    for (std::size_t first = 0; first < n; first += kCheckEvery) {
        check();
        std::sort(at(first), at(first + kCheckEvery));
    }
    for (std::size_t width = kCheckEvery; width < n; width *= 2) {
        for (std::size_t first = 0; first + width < n; first += 2 * width) {
            check();
            std::inplace_merge(at(first), at(first + width), at(first + 2 * width));
        }
    }
}

}  // namespace

std::vector<Episode> join_candidates(const std::vector<Episode>& frequent, const Progress* progress) {
    // a + last node of b, whenever a without its first node is b without its last.
    const auto prefixes = by_prefix(frequent, progress);
    std::vector<Episode> candidates;
    std::size_t looked = 0;
    for (const Episode& a : frequent) {
        check_now_and_then(progress, looked);
        const auto match = prefixes.find(drop_first(a));
        if (match == prefixes.end()) continue;
        for (const Episode* b : match->second) {
            Episode joined = a;
            joined.neurons.push_back(b->neurons.back());
            joined.gaps.push_back(b->gaps.back());
            candidates.push_back(std::move(joined));
        }
    }
    sort_cancellable(candidates, progress);
    return candidates;
}

std::uint64_t count_next_candidates(std::size_t level, const std::vector<Episode>& frequent, const std::vector<Interval>& intervals,
                                    const Progress* progress) {
    if (level == 1) return static_cast<std::uint64_t>(frequent.size()) * frequent.size() * intervals.size();
    const auto prefixes = by_prefix(frequent, progress);
    std::uint64_t joins = 0;
    std::size_t looked = 0;
    for (const Episode& a : frequent) {
        check_now_and_then(progress, looked);
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
