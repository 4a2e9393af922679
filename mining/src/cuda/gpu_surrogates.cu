// Surrogates made on the device (gpu_counting.hpp): one thread per spike places it by
// dithering.hpp's rules, the same code the CPU runs; a stable radix sort by time then
// gives the stream in make_surrogate's order (time, then neuron); the prefix counter
// counts over both without a copy.
#include "../dithering.hpp"
#include "../gpu_counting.hpp"
#include "../prefix_counting.hpp"
#include "../tuning.hpp"
#include "device_calls.cuh"

#include "spikeminer/core/error.hpp"

#include <cub/device/device_radix_sort.cuh>

#include <bit>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::run_cub;
using spikeminer::detail::upload;

using tuning::kBlock;

// Where spike i of the by-neuron layout belongs: its neuron, its first spike, its count.
struct SpikeSlot {
    NeuronId neuron;
    std::uint64_t first;
    std::size_t count;
    std::size_t k;
};

__device__ SpikeSlot slot_of(std::uint64_t i, const NeuronId* neuron_of, const std::uint64_t* offsets) {
    const NeuronId n = neuron_of[i];
    return SpikeSlot{n, offsets[n], static_cast<std::size_t>(offsets[n + 1] - offsets[n]), static_cast<std::size_t>(i - offsets[n])};
}

// One parity of dithering: spikes k with k % 2 == parity move, between neighbours that
// stay during this pass.
__global__ void dither_kernel(const Tick* times, Tick* placed, const NeuronId* neuron_of, const std::uint64_t* offsets,
                              std::uint64_t spikes, DitherBounds bounds, std::uint64_t surrogate,
                              const std::uint32_t* histograms, std::size_t cells, unsigned parity) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i >= spikes) return;
    const SpikeSlot s = slot_of(i, neuron_of, offsets);
    if ((s.k & 1U) != parity) return;
    const std::uint32_t* histogram = histograms != nullptr ? histograms + s.neuron * cells : nullptr;
    placed[i] = dithered_spike(times + s.first, placed + s.first, s.count, s.k, bounds, surrogate, s.neuron, histogram);
}

// Whole trains shifted: each spike to its place in its neuron's rotated train.
__global__ void shift_kernel(const Tick* times, Tick* placed, const NeuronId* neuron_of, const std::uint64_t* offsets,
                             std::uint64_t spikes, DitherBounds bounds, std::uint64_t surrogate) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i >= spikes) return;
    const SpikeSlot s = slot_of(i, neuron_of, offsets);
    const Tick offset = shift_offset(bounds, surrogate, s.neuron);
    const std::size_t split = shift_split(times + s.first, s.count, offset, bounds);
    const std::size_t to = s.k >= split ? s.k - split : s.k + s.count - split;
    placed[s.first + to] = shifted(times[i], offset, bounds);
}

__global__ void sort_keys_kernel(const Tick* placed, Tick start, std::uint64_t spikes, std::uint64_t* keys) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i < spikes) keys[i] = static_cast<std::uint64_t>(placed[i] - start);
}

// In place: the sorted keys (ticks from the start) back to times.
__global__ void times_from_keys_kernel(Tick* times, Tick start, std::uint64_t spikes) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i < spikes) times[i] = start + static_cast<Tick>(reinterpret_cast<const std::uint64_t*>(times)[i]);
}

// Every spike's neuron, in the by-neuron layout.
std::vector<NeuronId> neuron_of_spikes(const NeuronTimes& times) {
    std::vector<NeuronId> neuron_of(times.times.size());
    for (std::size_t n = 0; n + 1 < times.offsets.size(); ++n) {
        std::fill(neuron_of.begin() + static_cast<std::ptrdiff_t>(times.offsets[n]),
                  neuron_of.begin() + static_cast<std::ptrdiff_t>(times.offsets[n + 1]), static_cast<NeuronId>(n));
    }
    return neuron_of;
}

}  // namespace

struct GpuSurrogates::Device {
    DitherBounds bounds;
    std::uint64_t spikes;
    DeviceBuffer<std::uint64_t> offsets;
    DeviceBuffer<NeuronId> neuron_of;
    DeviceBuffer<Tick> original;
    DeviceBuffer<std::uint32_t> histograms;  // joint-ISI dithering only
    DeviceBuffer<Tick> placed;
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<Tick> stream_times;
    DeviceBuffer<NeuronId> stream_neurons;
    std::unique_ptr<PrefixCounting> counting;
};

GpuSurrogates::GpuSurrogates(const SpikeTrains& trains, const NeuronTimes& times, const SurrogateOptions& options,
                             std::size_t memory_budget)
    : trains_(trains), options_(options), device_(std::make_unique<Device>()) {
    Device& d = *device_;
    d.bounds = bounds_for(trains, options);
    d.spikes = times.times.size();
    d.offsets = upload(times.offsets, "surrogate layout");
    d.neuron_of = upload(neuron_of_spikes(times), "surrogate layout");
    d.original = upload(times.times, "spike times");
    if (options.kind == SurrogateKind::JointIsi) d.histograms = upload(joint_isi_histograms(times, IsiBins(d.bounds.dither)), "interval histograms");
    d.placed = allocate_or_oom<Tick>(d.spikes, "surrogate spikes");
    d.keys = allocate_or_oom<std::uint64_t>(d.spikes, "surrogate spikes");
    d.stream_times = allocate_or_oom<Tick>(d.spikes, "surrogate spikes");
    d.stream_neurons = allocate_or_oom<NeuronId>(d.spikes, "surrogate spikes");
    const DeviceSpikes view{d.placed.get(), d.stream_times.get(), d.stream_neurons.get(), d.spikes};
    d.counting = std::make_unique<PrefixCounting>(make_gpu_list_store(view, times, memory_budget, nullptr), times);
}

GpuSurrogates::~GpuSurrogates() = default;

void GpuSurrogates::make(std::uint64_t index) {
    Device& d = *device_;
    if (d.spikes == 0) return;
    const unsigned blocks = blocks_for(d.spikes, kBlock);
    if (d.bounds.kind == SurrogateKind::Shift) {
        shift_kernel<<<blocks, kBlock>>>(d.original.get(), d.placed.get(), d.neuron_of.get(), d.offsets.get(), d.spikes, d.bounds, index);
        check_launch();
    } else {
        const std::size_t cells = IsiBins(d.bounds.dither).cells();
        SPIKEMINER_CUDA_CHECK(cudaMemcpy(d.placed.get(), d.original.get(), d.spikes * sizeof(Tick), cudaMemcpyDeviceToDevice));
        for (const unsigned parity : {0U, 1U}) {
            dither_kernel<<<blocks, kBlock>>>(d.original.get(), d.placed.get(), d.neuron_of.get(), d.offsets.get(), d.spikes, d.bounds,
                                              index, d.histograms.get(), cells, parity);
            check_launch();
        }
    }
    // The stream: the by-neuron layout is in (neuron, time) order, so a stable sort by time
    // leaves spikes of one tick in neuron order, as SpikeTrains orders them.
    sort_keys_kernel<<<blocks, kBlock>>>(d.placed.get(), d.bounds.start, d.spikes, d.keys.get());
    check_launch();
    const int end_bit = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(d.bounds.end - d.bounds.start))));
    auto* sorted_keys = reinterpret_cast<std::uint64_t*>(d.stream_times.get());
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, d.keys.get(), sorted_keys, d.neuron_of.get(), d.stream_neurons.get(),
                                               static_cast<std::int64_t>(d.spikes), 0, end_bit);
    }, nullptr);
    times_from_keys_kernel<<<blocks, kBlock>>>(d.stream_times.get(), d.bounds.start, d.spikes);
    check_launch();
}

std::vector<std::uint64_t> GpuSurrogates::count(std::span<const Episode> episodes) {
    for (const Episode& episode : episodes) {
        if (episode.size() < 2) throw Error("surrogates on the GPU count episodes of two or more nodes");
    }
    return device_->counting->count(episodes, kKeepNone);
}

SpikeTrains GpuSurrogates::download() const {
    const Device& d = *device_;
    const std::vector<Tick> times = spikeminer::detail::download(d.stream_times.get(), d.spikes);
    const std::vector<NeuronId> neurons = spikeminer::detail::download(d.stream_neurons.get(), d.spikes);
    std::vector<Spike> spikes(d.spikes);
    for (std::size_t i = 0; i < spikes.size(); ++i) spikes[i] = {times[i], neurons[i]};
    SpikeTrains surrogate = SpikeTrains::from_spikes(std::move(spikes), trains_.neuron_table(), trains_.time_base());
    surrogate.set_span(trains_.span());
    return surrogate;
}

}  // namespace spikeminer::mining::detail
