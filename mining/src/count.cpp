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

struct EpisodeCounter::State {
    const SpikeTrains& trains;
    CountOptions options;
    Backend backend = Backend::Cpu;
    std::string note;
    detail::NeuronTimes times;
#ifdef SPIKEMINER_HAVE_CUDA
    std::unique_ptr<detail::GpuSpikeTimes> gpu;  // made at the first GPU count
#endif
    State(const SpikeTrains& t, const CountOptions& o) : trains(t), options(o), times(t) {}
};

EpisodeCounter::EpisodeCounter(const SpikeTrains& trains, const CountOptions& options) {
    std::string reason;
    Backend backend = options.backend;
    if (backend == Backend::Auto && options.counter != Counter::Auto) {
        backend = is_gpu_counter(options.counter) ? Backend::Cuda : Backend::Cpu;
    }
    backend = resolve_backend(backend, &reason);
    if (backend == Backend::Cpu && is_gpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the GPU; " +
                         (reason.empty() ? "--backend cpu takes fsm or twostep" : reason));
    }
    if (backend == Backend::Cuda && (options.counter == Counter::Fsm || options.counter == Counter::TwoStep)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the CPU; --backend gpu takes csw or atomic");
    }
    state_ = std::make_unique<State>(trains, options);
    state_->backend = backend;
    if (!reason.empty()) state_->note = "no GPU (" + reason + "): counting on the CPU";
}

EpisodeCounter::~EpisodeCounter() = default;

CountResult EpisodeCounter::count(std::span<const Episode> episodes) {
    State& state = *state_;
    for (const Episode& episode : episodes) validate(episode, state.trains);
    CountResult result;
    result.backend = state.backend;
    result.note = state.note;
    Counter counter = state.options.counter;
    if (counter == Counter::Auto) {
        // Small batches do not pay for the trip to the GPU.
        if (result.backend == Backend::Cuda && state.options.backend == Backend::Auto &&
            total_ends(state.times, episodes) < kSmallBatchEnds) {
            result.backend = Backend::Cpu;
        }
        // AtomicCompact beat CountScanWrite on most levels measured (bench/RESULTS.md).
        counter = result.backend == Backend::Cuda ? Counter::AtomicCompact : Counter::TwoStep;
    }
    result.counter = counter;
#ifdef SPIKEMINER_HAVE_CUDA
    if (result.backend == Backend::Cuda) {
        try {
            if (!state.gpu) state.gpu = std::make_unique<detail::GpuSpikeTimes>(state.times);
            result.counts = state.gpu->count(episodes, counter, state.options.gpu_memory_budget, state.options.progress);
            return result;
        } catch (const GpuOutOfMemory& oom) {
            result.note = std::string("GPU out of memory (") + oom.what() + "): counted on the CPU instead";
            result.backend = Backend::Cpu;
            result.counter = counter = Counter::TwoStep;
        }
    }
#endif
    result.counts = count_on_cpu(state.times, episodes, counter, state.options.threads);
    return result;
}

std::vector<Occurrence> EpisodeCounter::occurrences(const Episode& episode) const {
    return detail::greedy_occurrences(state_->trains, state_->times, episode);
}

CountResult count_episodes(const SpikeTrains& trains, std::span<const Episode> episodes, const CountOptions& options) {
    return EpisodeCounter(trains, options).count(episodes);
}

}  // namespace spikeminer::mining
