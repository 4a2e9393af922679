// See activations.hpp.
#include "activations.hpp"

#include "spikeminer/core/neuron_times.hpp"

#include <algorithm>
#include <numeric>
#include <span>

namespace spikeminer::pipeline {

namespace {

// The activations of `members` over `span` that fall within `periods`.
std::uint64_t activations_within(const NeuronTimes& times, const std::vector<NeuronId>& members, const std::vector<TimeSpan>& periods,
                                 TimeSpan span, Tick within) {
    const std::vector<Tick> all = activation_times(times, members, span, within);
    std::uint64_t count = 0;
    for (const TimeSpan& p : periods) {
        count += static_cast<std::uint64_t>(std::lower_bound(all.begin(), all.end(), p.end) - std::lower_bound(all.begin(), all.end(), p.start));
    }
    return count;
}

// The neurons of the groups `of` (indices into `members`), each once.
std::vector<NeuronId> neurons_of(const std::vector<std::vector<NeuronId>>& members, std::span<const std::size_t> of) {
    std::vector<NeuronId> neurons;
    for (const std::size_t i : of) neurons.insert(neurons.end(), members[i].begin(), members[i].end());
    std::sort(neurons.begin(), neurons.end());
    neurons.erase(std::unique(neurons.begin(), neurons.end()), neurons.end());
    return neurons;
}

}  // namespace

std::vector<mining::SurrogateSignificance> test_activations(const SpikeTrains& trains, const std::vector<std::vector<NeuronId>>& members,
                                                            const std::vector<std::vector<TimeSpan>>& periods, Tick within,
                                                            const mining::SignificanceOptions& options, Progress* progress) {
    // Each recording's (or surrogate's) members' spikes are gathered once, for all the groups counted in it.
    std::vector<std::size_t> all(members.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    const NeuronTimes times(trains, neurons_of(members, all));
    std::vector<std::uint64_t> observed;
    for (std::size_t i = 0; i < members.size(); ++i) observed.push_back(activations_within(times, members[i], periods[i], trains.span(), within));
    const mining::SurrogateTrains surrogates(trains, options.surrogate);  // what every surrogate shares, made once
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        const std::vector<NeuronId> involved = neurons_of(members, open);
        std::vector<bool> only(trains.num_neurons(), false);
        for (const NeuronId n : involved) only[n] = true;
        const SpikeTrains surrogate = surrogates.whole(s, only);
        const NeuronTimes moved(surrogate, involved);
        std::vector<std::uint64_t> counts;
        for (const std::size_t i : open) counts.push_back(activations_within(moved, members[i], periods[i], surrogate.span(), within));
        return counts;
    };
    return mining::test_against_surrogates(observed, options, count_in, progress, "assemblies against surrogates");
}

}  // namespace spikeminer::pipeline
