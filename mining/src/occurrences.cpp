// The occurrences behind a count: greedy by earliest end; for each chosen end the
// occurrence that starts last, drawn forward through the backward reachable sets.
#include "cpu/cpu_counters.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/mining/count.hpp"

#include <algorithm>

namespace spikeminer::mining {

namespace detail {

std::vector<Occurrence> greedy_occurrences(const SpikeTrains& trains, const NeuronTimes& times, const Episode& episode) {
    validate(episode, trains);
    const std::span<const Tick> ends = times.of(episode.neurons.back());
    std::vector<Tick> starts(ends.size());
    latest_starts(times, episode, 0, ends.size(), starts);

    std::vector<Occurrence> occurrences;
    greedy_select(ends, starts, [&](std::size_t e) {
        const auto sets = backward_sets(times, episode, e);
        // Forward: the latest start, then at each node the first event of the set that
        // follows the previous one by a gap in (lo, hi]; the set guarantees one exists.
        Occurrence occurrence;
        std::uint32_t index = sets[0].back();
        Tick t = times.of(episode.neurons[0])[index];
        occurrence.events.push_back(trains.spikes_of(episode.neurons[0])[index]);
        for (std::size_t k = 1; k < episode.size(); ++k) {
            const std::span<const Tick> node = times.of(episode.neurons[k]);
            const Interval& gap = episode.gaps[k - 1];
            const auto next = std::find_if(sets[k].begin(), sets[k].end(), [&](std::uint32_t j) {
                return node[j] - t > gap.lo && node[j] - t <= gap.hi;
            });
            index = *next;
            t = node[index];
            occurrence.events.push_back(trains.spikes_of(episode.neurons[k])[index]);
        }
        occurrences.push_back(std::move(occurrence));
    });
    return occurrences;
}

}  // namespace detail

std::vector<Occurrence> find_occurrences(const SpikeTrains& trains, const Episode& episode) {
    validate(episode, trains);
    return detail::greedy_occurrences(trains, NeuronTimes(trains, episode.neurons), episode);
}

}  // namespace spikeminer::mining
