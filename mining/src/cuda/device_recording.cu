// See device_recording.hpp.
#include "device_recording.hpp"

#include "../tuning.hpp"
#include "device_calls.cuh"
#include "device_stream.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceStream;
using spikeminer::detail::upload;

using tuning::kBlock;

__global__ void by_neuron_kernel(const Tick* stream, const std::uint32_t* positions, std::uint64_t spikes, Tick* by_neuron) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i < spikes) by_neuron[i] = stream[positions[i]];
}

// The copies on one device, by recording, and the lock its uploads take (a device's first
// readers wait for its copy, not for another device's).
struct DeviceCopies {
    std::mutex mutex;
    std::map<std::tuple<const Tick*, const std::uint64_t*, std::size_t, std::size_t>, std::weak_ptr<const DeviceRecording>> held;
};

}  // namespace

const Tick* DeviceRecording::times_by_neuron() const {
    const std::lock_guard lock(by_neuron_mutex_);
    if (by_neuron_.get() == nullptr && positions.size() != 0) {
        const DeviceStream stream;
        const cudaStream_t s = stream.get();
        const std::uint64_t spikes = positions.size();
        spikeminer::detail::DeviceBuffer<Tick> made = allocate_or_oom<Tick>(spikes, "spike times by neuron");
        by_neuron_kernel<<<blocks_for(spikes, kBlock), kBlock, 0, s>>>(times.get(), positions.get(), spikes, made.get());
        check_launch();
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s));
        by_neuron_ = std::move(made);
    }
    return by_neuron_.get();
}

std::shared_ptr<const DeviceRecording> device_recording(const SpikeTrains& trains) {
    static std::mutex devices_mutex;
    static std::map<int, DeviceCopies> devices;  // nodes stay put: a device's entry outlives the lock
    int device = 0;
    SPIKEMINER_CUDA_CHECK(cudaGetDevice(&device));
    DeviceCopies* copies = nullptr;
    {
        const std::lock_guard lock(devices_mutex);
        copies = &devices[device];
    }
    const std::lock_guard lock(copies->mutex);
    std::erase_if(copies->held, [](const auto& entry) { return entry.second.expired(); });
    const auto key = std::tuple(trains.times().data(), trains.neuron_offsets().data(), trains.num_spikes(), trains.num_neurons());
    if (const auto found = copies->held.find(key); found != copies->held.end()) {
        if (std::shared_ptr<const DeviceRecording> spikes = found->second.lock()) return spikes;
    }
    const DeviceStream stream;
    const cudaStream_t s = stream.get();
    auto spikes = std::make_shared<DeviceRecording>();
    spikes->times = upload(trains.times().data(), trains.num_spikes(), "spike times", s);
    spikes->neurons = upload(trains.neurons().data(), trains.num_spikes(), "spike neurons", s);
    spikes->positions = upload(trains.spike_index().data(), trains.spike_index().size(), "spike index", s);
    spikes->offsets = upload(trains.neuron_offsets().data(), trains.neuron_offsets().size(), "spike index", s);
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s));
    copies->held[key] = spikes;
    return spikes;
}

}  // namespace spikeminer::mining::detail
