// Dispatch of count_episodes: backend and counter choice, GPU fallback to the CPU.
#include "spikeminer/mining/count.hpp"

#include "cpu/cpu_counters.hpp"
#include "gpu_counting.hpp"
#include "neuron_times.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::mining {
namespace {

struct CounterName {
    Counter counter;
    const char* name;
};
constexpr CounterName kCounterNames[] = {{Counter::Auto, "auto"},
                                         {Counter::Fsm, "fsm"},
                                         {Counter::TwoStep, "twostep"},
                                         {Counter::CountScanWrite, "csw"},
                                         {Counter::AtomicCompact, "atomic"}};

bool is_gpu_counter(Counter counter) { return counter == Counter::CountScanWrite || counter == Counter::AtomicCompact; }

// Below this many end events a batch costs more to ship to the GPU than to count here.
constexpr std::size_t kSmallBatchEnds = 20'000;

std::size_t total_ends(const detail::NeuronTimes& times, std::span<const Episode> episodes) {
    std::size_t ends = 0;
    for (const Episode& episode : episodes) ends += times.of(episode.neurons.back()).size();
    return ends;
}

std::vector<std::uint64_t> count_on_cpu(const detail::NeuronTimes& times, std::span<const Episode> episodes,
                                        Counter counter, unsigned threads) {
    if (counter == Counter::Fsm) {
        std::vector<std::uint64_t> counts;
        counts.reserve(episodes.size());
        for (const Episode& episode : episodes) counts.push_back(detail::count_fsm(times, episode));
        return counts;
    }
    return detail::count_two_step(times, episodes, threads);
}

}  // namespace

std::string counter_name(Counter counter) {
    for (const auto& entry : kCounterNames) {
        if (entry.counter == counter) return entry.name;
    }
    return "auto";
}

Counter parse_counter(const std::string& name) {
    for (const auto& entry : kCounterNames) {
        if (name == entry.name) return entry.counter;
    }
    throw UsageError("unknown counter '" + name + "': choose auto, fsm, twostep, csw or atomic");
}

CountResult count_episodes(const SpikeTrains& trains, std::span<const Episode> episodes, const CountOptions& options) {
    for (const Episode& episode : episodes) validate(episode, trains);
    CountResult result;
    std::string reason;
    Backend backend = options.backend;
    if (backend == Backend::Auto && options.counter != Counter::Auto) {
        backend = is_gpu_counter(options.counter) ? Backend::Cuda : Backend::Cpu;
    }
    result.backend = resolve_backend(backend, &reason);
    if (result.backend == Backend::Cpu && is_gpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the GPU; " +
                         (reason.empty() ? "--backend cpu takes fsm or twostep" : reason));
    }
    if (result.backend == Backend::Cuda && (options.counter == Counter::Fsm || options.counter == Counter::TwoStep)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the CPU; --backend gpu takes csw or atomic");
    }
    if (!reason.empty()) result.note = "no GPU (" + reason + "): counting on the CPU";

    const detail::NeuronTimes times(trains);
    Counter counter = options.counter;
    if (counter == Counter::Auto) {
        // Small batches do not pay for the trip to the GPU.
        if (result.backend == Backend::Cuda && options.backend == Backend::Auto &&
            total_ends(times, episodes) < kSmallBatchEnds) {
            result.backend = Backend::Cpu;
        }
        counter = result.backend == Backend::Cuda ? Counter::CountScanWrite : Counter::TwoStep;
    }
    result.counter = counter;
#ifdef SPIKEMINER_HAVE_CUDA
    if (result.backend == Backend::Cuda) {
        try {
            result.counts = detail::count_on_gpu(times, episodes, counter, options.gpu_memory_budget, options.progress);
            return result;
        } catch (const detail::GpuOutOfMemory& oom) {
            result.note = "GPU out of memory (" + oom.what + "): counted on the CPU instead";
            result.backend = Backend::Cpu;
            result.counter = counter = Counter::TwoStep;
        }
    }
#endif
    result.counts = count_on_cpu(times, episodes, counter, options.threads);
    return result;
}

}  // namespace spikeminer::mining
