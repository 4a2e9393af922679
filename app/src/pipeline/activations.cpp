// See activations.hpp.
#include "activations.hpp"

#include <algorithm>


namespace spikeminer::pipeline {

namespace {

// The activations of `members` over the whole recording that fall within `periods`.
std::uint64_t activations_within(const SpikeTrains& trains, const std::vector<NeuronId>& members, const std::vector<TimeSpan>& periods,
                                 Tick within) {
    const std::vector<Tick> all = activation_times(trains, members, trains.span(), within);
    std::uint64_t count = 0;
    for (const TimeSpan& p : periods) {
        count += static_cast<std::uint64_t>(std::lower_bound(all.begin(), all.end(), p.end) - std::lower_bound(all.begin(), all.end(), p.start));
    }
    return count;
}

}  // namespace

std::vector<mining::SurrogateSignificance> test_activations(const SpikeTrains& trains, const std::vector<std::vector<NeuronId>>& members,
                                                            const std::vector<std::vector<TimeSpan>>& periods, Tick within,
                                                            const mining::SignificanceOptions& options, Progress* progress) {
    std::vector<std::uint64_t> observed;
    for (std::size_t i = 0; i < members.size(); ++i) observed.push_back(activations_within(trains, members[i], periods[i], within));
    const mining::SurrogateTrains surrogates(trains, options.surrogate);  // what every surrogate shares, made once
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        std::vector<bool> only(trains.num_neurons(), false);
        for (const std::size_t i : open) {
            for (const NeuronId n : members[i]) only[n] = true;
        }
        const SpikeTrains surrogate = surrogates.whole(s, only);
        std::vector<std::uint64_t> counts;
        for (const std::size_t i : open) counts.push_back(activations_within(surrogate, members[i], periods[i], within));
        return counts;
    };
    return mining::test_against_surrogates(observed, options, count_in, progress, "assemblies against surrogates");
}

}  // namespace spikeminer::pipeline
