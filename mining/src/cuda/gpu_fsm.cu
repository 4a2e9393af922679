// The streaming finite-state counter, one GPU thread per episode (gpu_fsm.hpp). The
// thread follows count_fsm (cpu/fsm_counter.cpp) step by step; its deques are rings.
#include "../cpu/cpu_counters.hpp"
#include "../tuning.hpp"
#include "device_calls.cuh"
#include "gpu_fsm.hpp"

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::upload;

constexpr unsigned kBlock = tuning::kFsmBlock;
constexpr std::uint64_t kOverflow = ~std::uint64_t{0};

// End times of partial occurrences at one node, oldest first, at most kFsmGpuRing.
struct Ring {
    Tick times[kFsmGpuRing];
    unsigned head = 0;
    unsigned size = 0;

    __device__ Tick front() const { return times[head]; }
    __device__ Tick back() const { return times[(head + size - 1) % kFsmGpuRing]; }
    __device__ void drop_before(Tick t) {
        while (size > 0 && times[head] < t) {
            head = (head + 1) % kFsmGpuRing;
            --size;
        }
    }
    __device__ bool push(Tick t) {
        if (size == kFsmGpuRing) return false;
        times[(head + size) % kFsmGpuRing] = t;
        ++size;
        return true;
    }
};

// Episode e: nodes neurons[e * max_nodes ...], gaps lo/hi[e * max_nodes ...], `length` nodes.
// counts[e] = the count, or kOverflow when a ring filled up.
__global__ void fsm_kernel(const Tick* times, const std::uint64_t* offsets, const NeuronId* neurons,
                           const std::uint32_t* lengths, const Tick* lo, const Tick* hi, std::uint32_t episodes,
                           std::uint64_t* counts) {
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= episodes) return;
    const std::uint32_t length = lengths[e];
    const NeuronId* nodes = neurons + std::size_t{e} * kFsmGpuMaxNodes;
    const Tick* gap_lo = lo + std::size_t{e} * kFsmGpuMaxNodes;
    const Tick* gap_hi = hi + std::size_t{e} * kFsmGpuMaxNodes;
    // Distinct neurons (sources), each with a cursor; node k reads source_of[k].
    std::uint64_t cursor[kFsmGpuMaxNodes];
    std::uint64_t stop[kFsmGpuMaxNodes];
    std::uint32_t source_of[kFsmGpuMaxNodes];
    NeuronId source_neuron[kFsmGpuMaxNodes];
    std::uint32_t sources = 0;
    for (std::uint32_t k = 0; k < length; ++k) {
        std::uint32_t s = 0;
        while (s < sources && source_neuron[s] != nodes[k]) ++s;
        if (s == sources) {
            source_neuron[s] = nodes[k];
            cursor[s] = offsets[nodes[k]];
            stop[s] = offsets[nodes[k] + 1];
            ++sources;
        }
        source_of[k] = s;
    }
    Ring ends[kFsmGpuMaxNodes];
    std::uint64_t count = 0;
    for (;;) {
        Tick t = 0;
        bool any = false;
        for (std::uint32_t s = 0; s < sources; ++s) {
            if (cursor[s] < stop[s] && (!any || times[cursor[s]] < t)) {
                t = times[cursor[s]];
                any = true;
            }
        }
        if (!any) break;
        bool complete = false;
        for (std::uint32_t s = 0; s < sources; ++s) {
            if (cursor[s] == stop[s] || times[cursor[s]] != t) continue;
            while (cursor[s] < stop[s] && times[cursor[s]] == t) ++cursor[s];
            for (std::uint32_t k = 0; k < length && !complete; ++k) {
                if (source_of[k] != s) continue;
                if (k > 0) {
                    Ring& previous = ends[k - 1];
                    previous.drop_before(t - gap_hi[k - 1]);
                    if (previous.size == 0 || previous.front() >= t - gap_lo[k - 1]) continue;
                }
                if (k + 1 == length) {
                    complete = true;
                    continue;
                }
                Ring& mine = ends[k];
                mine.drop_before(t - gap_hi[k]);
                if ((mine.size == 0 || mine.back() != t) && !mine.push(t)) {
                    counts[e] = kOverflow;
                    return;
                }
            }
        }
        if (complete) {
            ++count;
            for (std::uint32_t k = 0; k < length; ++k) ends[k].size = 0;
        }
    }
    counts[e] = count;
}

}  // namespace

std::vector<std::uint64_t> count_fsm_on_gpu(const Tick* d_times, const std::uint64_t* d_offsets, const NeuronTimes& times,
                                            std::span<const Episode> episodes) {
    std::vector<std::uint64_t> counts(episodes.size(), 0);
    // The episodes that fit a thread, laid out kFsmGpuMaxNodes apart.
    std::vector<std::size_t> fits;
    std::vector<NeuronId> neurons;
    std::vector<std::uint32_t> lengths;
    std::vector<Tick> lo;
    std::vector<Tick> hi;
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        const Episode& episode = episodes[i];
        if (episode.size() > kFsmGpuMaxNodes) continue;
        fits.push_back(i);
        lengths.push_back(static_cast<std::uint32_t>(episode.size()));
        for (std::size_t k = 0; k < kFsmGpuMaxNodes; ++k) {
            neurons.push_back(k < episode.size() ? episode.neurons[k] : 0);
            lo.push_back(k + 1 < episode.size() ? episode.gaps[k].lo : 0);
            hi.push_back(k + 1 < episode.size() ? episode.gaps[k].hi : 0);
        }
    }
    if (!fits.empty()) {
        const auto d_neurons = upload(neurons, "episodes");
        const auto d_lengths = upload(lengths, "episodes");
        const auto d_lo = upload(lo, "episodes");
        const auto d_hi = upload(hi, "episodes");
        auto d_counts = allocate_or_oom<std::uint64_t>(fits.size(), "counts");
        fsm_kernel<<<blocks_for(fits.size(), kBlock), kBlock>>>(d_times, d_offsets, d_neurons.get(), d_lengths.get(),
                                                                d_lo.get(), d_hi.get(), static_cast<std::uint32_t>(fits.size()),
                                                                d_counts.get());
        check_launch();
        const std::vector<std::uint64_t> found = spikeminer::detail::download(d_counts.get(), fits.size());
        for (std::size_t j = 0; j < fits.size(); ++j) counts[fits[j]] = found[j];
    }
    // Too long for a thread, or a ring overflowed: the CPU's counter.
    std::vector<bool> on_gpu(episodes.size(), false);
    for (const std::size_t i : fits) on_gpu[i] = counts[i] != kOverflow;
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        if (!on_gpu[i]) counts[i] = count_fsm(times, episodes[i]);
    }
    return counts;
}

}  // namespace spikeminer::mining::detail
