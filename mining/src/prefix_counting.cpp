// Bookkeeping of the prefix counter: episodes to extensions of stored lists.
#include "prefix_counting.hpp"

#include <set>

namespace spikeminer::mining::detail {
namespace {

// A one-node episode: each spike is an occurrence starting and ending at its time, so
// the greedy counts the distinct spike times.
std::uint64_t one_node_count(std::span<const Tick> spikes) {
    GreedyCount greedy;
    for (const Tick t : spikes) greedy.offer(t, t);
    return greedy.count;
}

}  // namespace

PrefixCounting::PrefixCounting(std::unique_ptr<ListStore> store, const NeuronTimes& times)
    : store_(std::move(store)), times_(times) {}

std::vector<std::uint64_t> PrefixCounting::extend(const std::vector<Episode>& episodes, std::uint64_t keep_at_least,
                                                  std::map<Episode, std::uint32_t>& kept) {
    std::vector<Extension> extensions;
    extensions.reserve(episodes.size());
    for (const Episode& episode : episodes) {
        const std::uint32_t parent =
            episode.size() == 2 ? Extension::seed(episode.neurons.front()) : stored_.at(drop_last(episode));
        extensions.push_back(Extension{parent, episode.gaps.back(), episode.neurons.back()});
    }
    auto next_id = static_cast<std::uint32_t>(store_->size());
    const std::vector<std::uint64_t> counts = store_->extend(extensions, keep_at_least);
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        if (counts[i] >= keep_at_least) kept.emplace(episodes[i], next_id++);
    }
    return counts;
}

std::vector<std::uint64_t> PrefixCounting::count(std::span<const Episode> episodes, std::uint64_t keep_at_least) {
    // Prefixes of two or more nodes that are needed and not stored, by length.
    std::map<std::size_t, std::set<Episode>> missing;
    for (const Episode& episode : episodes) {
        for (Episode prefix = episode; prefix.size() > 2;) {
            prefix = drop_last(prefix);
            if (stored_.contains(prefix) || !missing[prefix.size()].insert(prefix).second) break;
        }
    }
    for (const auto& [length, prefixes] : missing) {
        (void)extend(std::vector<Episode>(prefixes.begin(), prefixes.end()), 0, stored_);
    }

    std::vector<std::uint64_t> counts(episodes.size(), 0);
    std::vector<Episode> longer;
    std::vector<std::size_t> where;
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        if (episodes[i].size() == 1) {
            counts[i] = one_node_count(times_.of(episodes[i].neurons.front()));
        } else {
            longer.push_back(episodes[i]);
            where.push_back(i);
        }
    }
    std::map<Episode, std::uint32_t> kept;
    const std::vector<std::uint64_t> longer_counts = extend(longer, keep_at_least, kept);
    for (std::size_t i = 0; i < where.size(); ++i) counts[where[i]] = longer_counts[i];

    // Only this call's kept lists stay, renumbered in the map's order.
    std::vector<std::uint32_t> ids;
    ids.reserve(kept.size());
    stored_.clear();
    for (auto& [episode, id] : kept) {
        stored_.emplace(episode, static_cast<std::uint32_t>(ids.size()));
        ids.push_back(id);
    }
    store_->retain(ids);
    return counts;
}

}  // namespace spikeminer::mining::detail
