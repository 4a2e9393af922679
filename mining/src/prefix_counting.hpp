#pragma once

#include "end_lists.hpp"
#include "lag_counts.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/core/progress.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// The prefix counter over one ListStore (host or device): which episodes' end lists are
/// stored, and, for a call, the prefixes it needs that are not (built shortest first).
/// Mining keeps the frequent episodes' lists of one level, so that each candidate of the
/// next is one extension of a stored list.
class PrefixCounting {
public:
    /// Extends at most `chunk` episodes a call to the store (the bound on what one call
    /// holds beside the lists); the counts and lists are those of one call. `progress`
    /// (optional): its Cancel stops the bookkeeping of millions of episodes within moments.
    /// When the lists kept in host memory pass `budget` bytes after a call, count() throws
    /// MemoryBudgetExceeded (the counting is then to be given up).
    PrefixCounting(std::unique_ptr<ListStore> store, const NeuronTimes& times, std::size_t chunk = SIZE_MAX,
                   const Progress* progress = nullptr, std::size_t budget = SIZE_MAX);

    /// The counts of `episodes` (valid ones); afterwards the store holds exactly the
    /// lists of those counted at least `keep_at_least`.
    std::vector<std::uint64_t> count(std::span<const Episode> episodes, std::uint64_t keep_at_least);

    /// For each episode (of two or more nodes), the pairs of its prefix's ends and its
    /// last neuron's spikes at its last gap and at `baseline` (chance.hpp), on `threads`
    /// threads (0: all). The prefixes not stored are made and stay stored, so that the
    /// next count() extends them; at most `entries` of their ends are read at once.
    std::vector<LagCounts> lag_counts(std::span<const Episode> episodes, const Interval& baseline, unsigned threads,
                                      std::uint64_t entries, Progress* progress);

private:
    // Makes the lists of the episodes' prefixes of two or more nodes that are not stored.
    void store_prefixes(std::span<const Episode> episodes);

    // Extends every episode of `episodes` (all of size >= 2, prefixes stored or one node)
    // and records the ids of the lists kept.
    std::vector<std::uint64_t> extend(const std::vector<Episode>& episodes, std::uint64_t keep_at_least,
                                      std::map<Episode, std::uint32_t>& kept);

    std::unique_ptr<ListStore> store_;
    const NeuronTimes& times_;
    std::map<Episode, std::uint32_t> stored_;  // episode -> list id in store_
    std::size_t chunk_;
    const Progress* progress_;
    std::size_t budget_;
    // Checks for Cancel every few thousand calls.
    void check_now_and_then(std::size_t i) const;
};

}  // namespace spikeminer::mining::detail
