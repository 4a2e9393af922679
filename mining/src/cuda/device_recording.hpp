#pragma once
// A recording's spike stream and its per-neuron index on one device, uploaded once and
// read by every GPU stage that reads that recording there: DeviceWindows' counting
// threads, and the surrogate edge test's (which also share its times neuron by neuron).

#include "device_buffer.hpp"

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <memory>
#include <mutex>

namespace spikeminer::mining::detail {

struct DeviceRecording {
    spikeminer::detail::DeviceBuffer<Tick> times;                ///< the stream, in time order
    spikeminer::detail::DeviceBuffer<NeuronId> neurons;
    spikeminer::detail::DeviceBuffer<std::uint32_t> positions;  ///< each neuron's spikes' places in the stream (spike_index)
    spikeminer::detail::DeviceBuffer<std::uint64_t> offsets;    ///< where each neuron's run of positions starts

    /// Each neuron's spike times together, neuron after neuron as `offsets` places them:
    /// made by the first caller (the others wait for it) and kept with the recording.
    /// Throws GpuOutOfMemory where the device has no room for it.
    [[nodiscard]] const Tick* times_by_neuron() const;

private:
    mutable std::mutex by_neuron_mutex_;
    mutable spikeminer::detail::DeviceBuffer<Tick> by_neuron_;
};

/// The current device's copy of `trains`: the one a live holder holds, or a new one, whose
/// upload ends before any caller can read it. Holders end before their recording does, so
/// a recording's memory holds no other recording while its copy is held.
std::shared_ptr<const DeviceRecording> device_recording(const SpikeTrains& trains);

}  // namespace spikeminer::mining::detail
