#pragma once

#include "../end_lists.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/mining/count.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// Marks an end event that closes no occurrence.
inline constexpr Tick kNoStart = std::numeric_limits<Tick>::min();

/// The streaming finite-state counter (Patnaik et al. 2008), exact under the shared
/// semantics: one pass over the episode's neurons' spikes in time order, keeping for each
/// node the end times of partial occurrences that started after the last counted one.
std::uint64_t count_fsm(const NeuronTimes& times, const Episode& episode);

/// For the end events [first, last) of the episode (spikes of its last neuron, in time
/// order), the latest start of an occurrence ending there, or kNoStart. For one end only
/// the latest start matters to the greedy count: among occurrences with the same end, the
/// one starting last is compatible with every schedule the others are.
void latest_starts(const NeuronTimes& times, const Episode& episode, std::size_t first, std::size_t last,
                   std::span<Tick> starts);

/// The greedy choice over (start, end) pairs sorted by end: take an occurrence whenever it
/// starts after the end of the last one taken (optimal for interval scheduling); calls
/// taken(e) for each end event e taken, in order.
template <typename Taken>
void greedy_select(std::span<const Tick> ends, std::span<const Tick> starts, Taken taken) {
    GreedyCount greedy;
    for (std::size_t e = 0; e < ends.size(); ++e) {
        if (starts[e] != kNoStart && greedy.offer(ends[e], starts[e])) taken(e);
    }
}

/// How many greedy_select takes.
std::uint64_t greedy_count(std::span<const Tick> ends, std::span<const Tick> starts);

/// The two-step counter for many episodes, using `threads` threads (0 = all).
std::vector<std::uint64_t> count_two_step(const NeuronTimes& times, std::span<const Episode> episodes,
                                          unsigned threads);

/// End lists in host memory, extended on `threads` threads (0 = all), reporting each
/// extension to `progress` (optional; its Cancel stops the work).
std::unique_ptr<ListStore> make_cpu_list_store(const SpikeTrains& trains, const NeuronTimes& times, unsigned threads,
                                               Progress* progress);

/// The greedy occurrences behind a count (EpisodeCounter::occurrences).
std::vector<Occurrence> greedy_occurrences(const SpikeTrains& trains, const NeuronTimes& times, const Episode& episode);

/// The backward reachable sets of one end event: for each node k, the sorted indices (into
/// the spikes of episode.neurons[k]) of events that lie on some occurrence ending at the
/// end event `end_index`. Empty sets when no occurrence ends there.
std::vector<std::vector<std::uint32_t>> backward_sets(const NeuronTimes& times, const Episode& episode,
                                                      std::size_t end_index);

}  // namespace spikeminer::mining::detail
