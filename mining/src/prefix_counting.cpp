// Bookkeeping of the prefix counter: episodes to extensions of stored lists.
#include "prefix_counting.hpp"

#include "spikeminer/core/first_failure.hpp"
#include "spikeminer/core/memory.hpp"

#include <omp.h>

#include <algorithm>
#include <optional>
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

PrefixCounting::PrefixCounting(std::unique_ptr<ListStore> store, const NeuronTimes& times, std::size_t chunk, const Progress* progress,
                               std::size_t budget)
    : store_(std::move(store)), times_(times), chunk_(std::max<std::size_t>(chunk, 1)), progress_(progress), budget_(budget) {}

void PrefixCounting::check_now_and_then(std::size_t i) const {
    if (progress_ != nullptr && i % 4096 == 0) progress_->check_cancelled();
}

std::vector<std::uint64_t> PrefixCounting::extend(const std::vector<Episode>& episodes, std::uint64_t keep_at_least,
                                                  std::map<Episode, std::uint32_t>& kept) {
    std::vector<std::uint64_t> counts;
    counts.reserve(episodes.size());
    for (std::size_t first = 0; first < episodes.size(); first += chunk_) {
        const std::size_t last = std::min(episodes.size(), first + chunk_);
        std::vector<Extension> extensions;
        extensions.reserve(last - first);
        for (std::size_t i = first; i < last; ++i) {
            check_now_and_then(i);
            const Episode& episode = episodes[i];
            const std::uint32_t parent =
                episode.size() == 2 ? Extension::seed(episode.neurons.front()) : stored_.at(drop_last(episode));
            extensions.push_back(Extension{parent, episode.gaps.back(), episode.neurons.back()});
        }
        auto next_id = static_cast<std::uint32_t>(store_->size());
        const std::vector<std::uint64_t> chunk_counts = store_->extend(extensions, keep_at_least);
        if (store_->host_bytes() > budget_) {
            throw MemoryBudgetExceeded("the end lists kept for the next level took " + format_bytes(static_cast<double>(store_->host_bytes())) +
                                       " after " + std::to_string(last) + " of " + std::to_string(episodes.size()) +
                                       " episodes, over the memory budget (" + format_bytes(static_cast<double>(budget_)) + ")");
        }
        for (std::size_t i = first; i < last; ++i) {
            check_now_and_then(i);
            counts.push_back(chunk_counts[i - first]);
            if (counts.back() >= keep_at_least) kept.emplace(episodes[i], next_id++);
        }
    }
    return counts;
}

void PrefixCounting::store_prefixes(std::span<const Episode> episodes) {
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
}

std::vector<LagCounts> PrefixCounting::lag_counts(std::span<const Episode> episodes, const Interval& baseline, unsigned threads,
                                                  std::uint64_t entries, Progress* progress) {
    store_prefixes(episodes);
    // The episodes by prefix: a stored list's id, or a one-node prefix as a seed.
    std::vector<std::pair<std::uint32_t, std::size_t>> by_prefix;
    std::vector<LagQuery> queries;
    by_prefix.reserve(episodes.size());
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        const Episode& e = episodes[i];
        by_prefix.emplace_back(e.size() == 2 ? Extension::seed(e.neurons.front()) : stored_.at(drop_last(e)), i);
        queries.push_back(LagQuery{by_prefix.back().first, e.neurons.back(), e.gaps.back()});
    }
    // Where the store counts them itself (on its device), nothing is read back.
    if (std::optional<std::vector<LagCounts>> here = store_->lag_counts_here(queries, baseline)) return std::move(*here);
    std::sort(by_prefix.begin(), by_prefix.end());
    const auto length = [&](std::uint32_t prefix) {
        return (prefix & Extension::kSeed) != 0 ? times_.of(prefix & ~Extension::kSeed).size() : store_->length(prefix);
    };
    std::vector<LagCounts> counts(episodes.size());
    if (progress != nullptr) progress->begin("testing against chance", episodes.size());
    // Chunks of whole prefixes, their ends at most `entries` (one prefix at least).
    for (std::size_t first = 0; first < by_prefix.size();) {
        std::vector<std::uint32_t> stored;
        std::uint64_t read = 0;
        std::size_t last = first;
        while (last < by_prefix.size()) {
            const std::uint32_t prefix = by_prefix[last].first;
            const bool new_prefix = last == first || prefix != by_prefix[last - 1].first;
            if (new_prefix) {
                if (last != first && read + length(prefix) > entries) break;
                read += length(prefix);
                if ((prefix & Extension::kSeed) == 0) stored.push_back(prefix);
            }
            ++last;
        }
        std::vector<std::vector<Tick>> scratch;
        const std::vector<std::span<const Tick>> views = store_->ends(stored, scratch);
        const auto ends_of = [&](std::uint32_t prefix) {
            if ((prefix & Extension::kSeed) != 0) return times_.of(prefix & ~Extension::kSeed);
            return views[static_cast<std::size_t>(std::lower_bound(stored.begin(), stored.end(), prefix) - stored.begin())];
        };
        FirstFailure failure;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
        for (std::ptrdiff_t k = static_cast<std::ptrdiff_t>(first); k < static_cast<std::ptrdiff_t>(last); ++k) {
            if (failure.failed()) continue;
            failure.run([&] {
                const auto [prefix, i] = by_prefix[static_cast<std::size_t>(k)];
                if (progress != nullptr && (k & 1023) == 0) progress->check_cancelled();
                const Episode& e = episodes[i];
                counts[i] = count_lags(ends_of(prefix), times_.of(e.neurons.back()), e.gaps.back(), baseline);
            });
        }
        failure.rethrow_if_failed();
        first = last;
        if (progress != nullptr) progress->update(first);
    }
    if (progress != nullptr) progress->finish();
    return counts;
}

std::vector<std::uint64_t> PrefixCounting::count(std::span<const Episode> episodes, std::uint64_t keep_at_least) {
    store_prefixes(episodes);

    std::vector<std::uint64_t> counts(episodes.size(), 0);
    std::vector<Episode> longer;
    std::vector<std::size_t> where;
    std::vector<std::size_t> singles;
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        if (episodes[i].size() == 1) {
            singles.push_back(i);
        } else {
            longer.push_back(episodes[i]);
            where.push_back(i);
        }
    }
#pragma omp parallel for schedule(dynamic, 4)
    for (std::size_t k = 0; k < singles.size(); ++k) counts[singles[k]] = one_node_count(times_.of(episodes[singles[k]].neurons.front()));
    std::map<Episode, std::uint32_t> kept;
    const std::vector<std::uint64_t> longer_counts = extend(longer, keep_at_least, kept);
    for (std::size_t i = 0; i < where.size(); ++i) counts[where[i]] = longer_counts[i];

    // Only this call's kept lists stay, renumbered in the map's order.
    std::vector<std::uint32_t> ids;
    ids.reserve(kept.size());
    for (auto& [episode, id] : kept) {
        check_now_and_then(ids.size());
        ids.push_back(id);
        id = static_cast<std::uint32_t>(ids.size() - 1);
    }
    stored_ = std::move(kept);
    store_->retain(ids);
    return counts;
}

}  // namespace spikeminer::mining::detail
