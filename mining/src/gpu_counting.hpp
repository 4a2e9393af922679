#pragma once

#include "end_lists.hpp"
#include "neuron_times.hpp"

#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/count.hpp"

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

/// End lists on the current CUDA device, extended within `memory_budget` bytes of scratch
/// (0: default_gpu_budget()), reporting each group of prefixes to `progress` (optional;
/// its Cancel stops the work). Throws GpuOutOfMemory when the device is full.
std::unique_ptr<ListStore> make_gpu_list_store(const SpikeTrains& trains, const NeuronTimes& times,
                                               std::size_t memory_budget, Progress* progress);

}  // namespace spikeminer::mining::detail
