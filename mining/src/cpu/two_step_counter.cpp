// The two-step counter: (1) for every end event, the latest start of an occurrence ending
// there, by a backward search; (2) greedy interval scheduling over those (start, end)
// pairs in end order.
//
// The backward search keeps, per node, the set of events that lie on an occurrence ending
// at the end event. From a sorted set at node k+1 the events of node k in the windows
// [t - hi, t - lo) are wanted; both window bounds grow with t, so the windows' index
// ranges [a_i, b_i) have non-decreasing ends, and their union, sorted and without
// repeats, is the concatenation of [max(a_i, b_{i-1}), b_i). Paths are never enumerated:
// the sets stay as small as the events in the episode's time span.
#include "cpu_counters.hpp"

#include <omp.h>

#include <algorithm>

namespace spikeminer::mining::detail {
namespace {

// One backward step: events of `earlier` (node k) that precede some event of `current`
// (indices into `later`, node k+1) by a gap in (lo, hi].
void step_back(std::span<const Tick> later, const std::vector<std::uint32_t>& current, std::span<const Tick> earlier,
               const Interval& gap, std::vector<std::uint32_t>& out) {
    out.clear();
    std::size_t covered = 0;  // b_{i-1}
    for (const std::uint32_t i : current) {
        const Tick t = later[i];
        const auto a = static_cast<std::size_t>(std::lower_bound(earlier.begin(), earlier.end(), t - gap.hi) - earlier.begin());
        const auto b = static_cast<std::size_t>(std::lower_bound(earlier.begin() + static_cast<std::ptrdiff_t>(a),
                                                                 earlier.end(), t - gap.lo) -
                                                earlier.begin());
        for (std::size_t j = std::max(a, covered); j < b; ++j) out.push_back(static_cast<std::uint32_t>(j));
        covered = std::max(covered, b);
    }
}

}  // namespace

std::vector<std::vector<std::uint32_t>> backward_sets(const NeuronTimes& times, const Episode& episode,
                                                      std::size_t end_index) {
    const std::size_t length = episode.size();
    std::vector<std::vector<std::uint32_t>> sets(length);
    sets[length - 1] = {static_cast<std::uint32_t>(end_index)};
    for (std::size_t k = length - 1; k > 0; --k) {
        step_back(times.of(episode.neurons[k]), sets[k], times.of(episode.neurons[k - 1]), episode.gaps[k - 1],
                  sets[k - 1]);
        if (sets[k - 1].empty()) {
            for (auto& set : sets) set.clear();
            break;
        }
    }
    return sets;
}

void latest_starts(const NeuronTimes& times, const Episode& episode, std::size_t first, std::size_t last,
                   std::span<Tick> starts) {
    const std::size_t length = episode.size();
    const std::span<const Tick> first_node = times.of(episode.neurons.front());
    std::vector<std::uint32_t> current;
    std::vector<std::uint32_t> previous;
    for (std::size_t e = first; e < last; ++e) {
        current.assign(1, static_cast<std::uint32_t>(e));
        for (std::size_t k = length - 1; k > 0 && !current.empty(); --k) {
            step_back(times.of(episode.neurons[k]), current, times.of(episode.neurons[k - 1]), episode.gaps[k - 1],
                      previous);
            current.swap(previous);
        }
        starts[e - first] = current.empty() ? kNoStart : first_node[current.back()];
    }
}

std::uint64_t greedy_count(std::span<const Tick> ends, std::span<const Tick> starts) {
    std::uint64_t count = 0;
    greedy_select(ends, starts, [&count](std::size_t) { ++count; });
    return count;
}

std::vector<std::uint64_t> count_two_step(const NeuronTimes& times, std::span<const Episode> episodes,
                                          unsigned threads) {
    const int workers = threads == 0 ? omp_get_max_threads() : static_cast<int>(threads);
    std::vector<std::uint64_t> counts(episodes.size(), 0);
    const auto count_one = [&](const Episode& episode, bool parallel_ends) {
        const std::span<const Tick> ends = times.of(episode.neurons.back());
        std::vector<Tick> starts(ends.size());
        constexpr std::size_t chunk = 512;
        const auto chunks = static_cast<std::int64_t>((ends.size() + chunk - 1) / chunk);
#pragma omp parallel for schedule(dynamic) num_threads(workers) if (parallel_ends)
        for (std::int64_t c = 0; c < chunks; ++c) {
            const auto first = static_cast<std::size_t>(c) * chunk;
            const std::size_t last = std::min(ends.size(), first + chunk);
            latest_starts(times, episode, first, last, std::span<Tick>(starts).subspan(first, last - first));
        }
        return greedy_count(ends, starts);
    };
    // Many episodes: one per thread. Few: the end events of each are shared out.
    if (episodes.size() >= 4 * static_cast<std::size_t>(workers)) {
#pragma omp parallel for schedule(dynamic) num_threads(workers)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(episodes.size()); ++i) {
            counts[static_cast<std::size_t>(i)] = count_one(episodes[static_cast<std::size_t>(i)], false);
        }
    } else {
        for (std::size_t i = 0; i < episodes.size(); ++i) counts[i] = count_one(episodes[i], true);
    }
    return counts;
}

}  // namespace spikeminer::mining::detail
