#pragma once

#include "end_lists.hpp"

#include "spikeminer/core/neuron_times.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/count.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <memory>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// The spike times on the current CUDA device, and the GPU counters that search them:
/// CountScanWrite or AtomicCompact, all episodes of a length batched, in chunks that keep
/// the search within `memory_budget` bytes (0: half the free device memory); or GpuFsm. Only in
/// builds with CUDA (src/cuda). Throws GpuOutOfMemory when the device is full.
class GpuSpikeTimes {
public:
    explicit GpuSpikeTimes(const NeuronTimes& times);
    ~GpuSpikeTimes();
    GpuSpikeTimes(const GpuSpikeTimes&) = delete;
    GpuSpikeTimes& operator=(const GpuSpikeTimes&) = delete;

    std::vector<std::uint64_t> count(std::span<const Episode> episodes, Counter counter, std::size_t memory_budget,
                                     Progress* progress) const;

private:
    struct Device;
    const NeuronTimes& times_;
    std::unique_ptr<Device> device_;
};

/// Half the free device memory: the default budget of the GPU counters.
std::size_t default_gpu_budget();

/// A recording's spikes on the device, by neuron (NeuronTimes' layout) and as the stream in
/// time order: views, kept alive by their owner.
struct DeviceSpikes {
    const Tick* by_neuron = nullptr;
    const Tick* stream_times = nullptr;
    const NeuronId* stream_neurons = nullptr;
    std::size_t spikes = 0;
};

/// End lists on the current CUDA device, extended within `memory_budget` bytes of scratch
/// (0: default_gpu_budget()), reporting each group of prefixes to `progress` (optional;
/// its Cancel stops the work). Throws GpuOutOfMemory when the device is full.
std::unique_ptr<ListStore> make_gpu_list_store(const SpikeTrains& trains, const NeuronTimes& times,
                                               std::size_t memory_budget, Progress* progress);
/// The same over spikes already on the device (`times` gives their offsets by neuron).
std::unique_ptr<ListStore> make_gpu_list_store(const DeviceSpikes& spikes, const NeuronTimes& times, std::size_t memory_budget,
                                               Progress* progress);

/// Surrogates of one recording made on the current CUDA device, one at a time, spike for
/// spike as make_surrogate makes them, and counted there by the prefix counter: only the
/// recording (and, for joint-ISI dithering, its neurons' interval histograms) travels to
/// the device, once. Throws GpuOutOfMemory when the device is full.
class GpuSurrogates {
public:
    GpuSurrogates(const SpikeTrains& trains, const NeuronTimes& times, const SurrogateOptions& options, std::size_t memory_budget);
    ~GpuSurrogates();
    GpuSurrogates(const GpuSurrogates&) = delete;
    GpuSurrogates& operator=(const GpuSurrogates&) = delete;

    [[nodiscard]] const SurrogateOptions& options() const { return options_; }
    /// Makes surrogate `index` on the device, in place of the last one.
    void make(std::uint64_t index);
    /// Counts episodes of two or more nodes in the surrogate made last.
    std::vector<std::uint64_t> count(std::span<const Episode> episodes);
    /// The surrogate made last, read back in its stream's order.
    [[nodiscard]] SpikeTrains download() const;

private:
    struct Device;
    const SpikeTrains& trains_;
    SurrogateOptions options_;
    std::unique_ptr<Device> device_;
};

}  // namespace spikeminer::mining::detail
