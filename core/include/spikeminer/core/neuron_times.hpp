#pragma once

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <span>
#include <vector>

namespace spikeminer {

/// Every neuron's spike times, contiguous and sorted (a CSR by neuron): what the counters
/// search with binary searches, on the CPU and, uploaded, on the GPU, and what the
/// assemblies' activations sweep without a cache miss a spike.
struct NeuronTimes {
    std::vector<std::uint64_t> offsets;  ///< neurons + 1
    UninitializedVector<Tick> times;

    /// Gathered neuron by neuron on all cores.
    explicit NeuronTimes(const SpikeTrains& trains);
    /// Only the spikes of `only` (the other neurons hold none): what one episode's
    /// occurrences or a few assemblies need, without gathering the whole recording.
    NeuronTimes(const SpikeTrains& trains, std::span<const NeuronId> only);
    [[nodiscard]] std::span<const Tick> of(NeuronId n) const {
        return {times.data() + offsets[n], static_cast<std::size_t>(offsets[n + 1] - offsets[n])};
    }
    /// Those of them within `span`, as SpikeTrains::spikes_of(n, span) finds them (none
    /// when the span ends before it starts).
    [[nodiscard]] std::span<const Tick> of(NeuronId n, TimeSpan span) const;

private:
    void gather(const SpikeTrains& trains, const std::vector<bool>& kept);  // the neurons kept (all when empty)
};

}  // namespace spikeminer
