// See activations.hpp.
#include "activations.hpp"

#include <algorithm>

namespace spikeminer::pipeline {

std::vector<Tick> activation_times(const SpikeTrains& trains, const std::vector<NeuronId>& members, TimeSpan span, Tick within) {
    // The members' spikes within the span, in time order, each with its member's index.
    const auto all = trains.times();
    const auto before = [all](std::uint32_t i, Tick t) { return all[i] < t; };
    std::vector<std::pair<Tick, std::size_t>> spikes;
    for (std::size_t m = 0; m < members.size(); ++m) {
        const auto of = trains.spikes_of(members[m]);
        const auto first = std::lower_bound(of.begin(), of.end(), span.start, before);
        const auto last = std::lower_bound(first, of.end(), span.end, before);
        for (auto it = first; it != last; ++it) spikes.emplace_back(all[*it], m);
    }
    std::sort(spikes.begin(), spikes.end());
    std::vector<Tick> out;
    std::vector<std::size_t> in_reach(members.size(), 0);
    std::size_t distinct = 0;
    std::size_t end = 0;  // spikes [i, end) are within `within` of spike i
    for (std::size_t i = 0; i < spikes.size();) {
        while (end < spikes.size() && spikes[end].first - spikes[i].first <= within) {
            if (in_reach[spikes[end].second]++ == 0) ++distinct;
            ++end;
        }
        if (2 * distinct > members.size()) {
            out.push_back(spikes[i].first);
            std::fill(in_reach.begin(), in_reach.end(), 0);  // the next group starts after this one's spikes
            distinct = 0;
            i = end;
            continue;
        }
        if (--in_reach[spikes[i].second] == 0) --distinct;
        ++i;
    }
    return out;
}

std::vector<mining::SurrogateSignificance> test_activations(const SpikeTrains& trains, const std::vector<std::vector<NeuronId>>& members,
                                                            const std::vector<TimeSpan>& spans, Tick within,
                                                            const mining::SignificanceOptions& options, Progress* progress) {
    std::vector<std::uint64_t> observed;
    for (std::size_t i = 0; i < members.size(); ++i) observed.push_back(activation_times(trains, members[i], spans[i], within).size());
    const mining::SurrogateTrains surrogates(trains, options.surrogate);  // what every surrogate shares, made once
    const auto count_in = [&](std::uint64_t s, std::span<const std::size_t> open) {
        std::vector<bool> only(trains.num_neurons(), false);
        for (const std::size_t i : open) {
            for (const NeuronId n : members[i]) only[n] = true;
        }
        const SpikeTrains surrogate = surrogates.whole(s, only);
        std::vector<std::uint64_t> counts;
        for (const std::size_t i : open) counts.push_back(activation_times(surrogate, members[i], spans[i], within).size());
        return counts;
    };
    return mining::test_against_surrogates(observed, options, count_in, progress, "assemblies against surrogates");
}

}  // namespace spikeminer::pipeline
