#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// Every neuron's spike times, contiguous and sorted (a CSR by neuron): what the counters
/// search with binary searches, on the CPU and, uploaded, on the GPU.
struct NeuronTimes {
    std::vector<std::uint64_t> offsets;  ///< neurons + 1
    UninitializedVector<Tick> times;

    /// Gathered neuron by neuron on all cores.
    explicit NeuronTimes(const SpikeTrains& trains);
    [[nodiscard]] std::span<const Tick> of(NeuronId n) const {
        return {times.data() + offsets[n], static_cast<std::size_t>(offsets[n + 1] - offsets[n])};
    }
};

}  // namespace spikeminer::mining::detail
