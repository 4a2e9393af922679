#include "neuron_times.hpp"

#include <omp.h>

namespace spikeminer::mining::detail {

NeuronTimes::NeuronTimes(const SpikeTrains& trains) {
    const std::size_t neurons = trains.num_neurons();
    offsets.resize(neurons + 1);
    offsets[0] = 0;
    for (NeuronId n = 0; n < neurons; ++n) offsets[n + 1] = offsets[n] + trains.spike_count(n);
    times.resize(trains.num_spikes());
    const std::span<const Tick> stream = trains.times();
#pragma omp parallel for schedule(dynamic, 8) if (trains.num_spikes() > (std::size_t{1} << 16))
    for (std::size_t n = 0; n < neurons; ++n) {
        Tick* to = times.data() + offsets[n];
        for (const std::uint32_t i : trains.spikes_of(static_cast<NeuronId>(n))) *to++ = stream[i];
    }
}

}  // namespace spikeminer::mining::detail
