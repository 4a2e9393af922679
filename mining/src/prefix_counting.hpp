#pragma once

#include "end_lists.hpp"
#include "neuron_times.hpp"

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
    PrefixCounting(std::unique_ptr<ListStore> store, const NeuronTimes& times);

    /// The counts of `episodes` (valid ones); afterwards the store holds exactly the
    /// lists of those counted at least `keep_at_least`.
    std::vector<std::uint64_t> count(std::span<const Episode> episodes, std::uint64_t keep_at_least);

private:
    // Extends every episode of `episodes` (all of size >= 2, prefixes stored or one node)
    // and records the ids of the lists kept.
    std::vector<std::uint64_t> extend(const std::vector<Episode>& episodes, std::uint64_t keep_at_least,
                                      std::map<Episode, std::uint32_t>& kept);

    std::unique_ptr<ListStore> store_;
    const NeuronTimes& times_;
    std::map<Episode, std::uint32_t> stored_;  // episode -> list id in store_
};

}  // namespace spikeminer::mining::detail
