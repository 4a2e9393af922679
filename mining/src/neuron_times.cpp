#include "neuron_times.hpp"

namespace spikeminer::mining::detail {

NeuronTimes::NeuronTimes(const SpikeTrains& trains) {
    offsets.reserve(trains.num_neurons() + 1);
    offsets.push_back(0);
    times.reserve(trains.num_spikes());
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        for (const std::uint32_t i : trains.spikes_of(n)) times.push_back(trains.times()[i]);
        offsets.push_back(times.size());
    }
}

}  // namespace spikeminer::mining::detail
