// See neuron_times.hpp.
#include "spikeminer/core/neuron_times.hpp"

#include <omp.h>

#include <algorithm>

namespace spikeminer {

NeuronTimes::NeuronTimes(const SpikeTrains& trains) { gather(trains, {}); }

NeuronTimes::NeuronTimes(const SpikeTrains& trains, std::span<const NeuronId> only) {
    std::vector<bool> kept(trains.num_neurons(), false);
    for (const NeuronId n : only) kept.at(n) = true;
    gather(trains, kept);
}

std::span<const Tick> NeuronTimes::of(NeuronId n, TimeSpan span) const {
    const std::span<const Tick> all = of(n);
    const auto first = std::lower_bound(all.begin(), all.end(), span.start);
    const auto last = std::lower_bound(first, all.end(), std::max(span.start, span.end));
    return {first, last};
}

void NeuronTimes::gather(const SpikeTrains& trains, const std::vector<bool>& kept) {
    const std::size_t neurons = trains.num_neurons();
    offsets.resize(neurons + 1);
    offsets[0] = 0;
    for (NeuronId n = 0; n < neurons; ++n) offsets[n + 1] = offsets[n] + (kept.empty() || kept[n] ? trains.spike_count(n) : 0);
    times.resize(offsets[neurons]);
    const std::span<const Tick> stream = trains.times();
#pragma omp parallel for schedule(dynamic, 8) if (offsets[neurons] > (std::size_t{1} << 16))
    for (std::size_t n = 0; n < neurons; ++n) {
        if (offsets[n + 1] == offsets[n]) continue;
        Tick* to = times.data() + offsets[n];
        for (const std::uint32_t i : trains.spikes_of(static_cast<NeuronId>(n))) *to++ = stream[i];
    }
}

}  // namespace spikeminer
