// Dispatch of count_episodes: backend and counter choice, GPU fallback to the CPU.
#include "spikeminer/mining/count.hpp"

#include "cpu/cpu_counters.hpp"
#include "gpu_counting.hpp"
#include "neuron_times.hpp"
#include "prefix_counting.hpp"

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
                                         {Counter::AtomicCompact, "atomic"},
                                         {Counter::Prefix, "prefix"},
                                         {Counter::GpuFsm, "gpufsm"}};

bool is_gpu_counter(Counter counter) {
    return counter == Counter::CountScanWrite || counter == Counter::AtomicCompact || counter == Counter::GpuFsm;
}

bool is_cpu_counter(Counter counter) { return counter == Counter::Fsm || counter == Counter::TwoStep; }

// Below this many spikes a recording costs more to ship to the GPU than to count here.
constexpr std::size_t kSmallRecording = 20'000;
// From this many episodes on, auto counts them with the prefix counter.
constexpr std::size_t kManyEpisodes = 256;

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
    throw UsageError("unknown counter '" + name + "': choose auto, fsm, twostep, csw, atomic, prefix or gpufsm");
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
    std::unique_ptr<detail::PrefixCounting> prefix;  // made at the first prefix count, on `backend`
    State(const SpikeTrains& t, const CountOptions& o) : trains(t), options(o), times(t) {}

    detail::PrefixCounting& prefix_counting() {
        if (!prefix) {
#ifdef SPIKEMINER_HAVE_CUDA
            if (backend == Backend::Cuda) {
                prefix = std::make_unique<detail::PrefixCounting>(
                    detail::make_gpu_list_store(trains, times, options.gpu_memory_budget, options.progress), times);
            }
#endif
            if (!prefix) {
                prefix = std::make_unique<detail::PrefixCounting>(
                    detail::make_cpu_list_store(trains, times, options.threads, options.progress), times);
            }
        }
        return *prefix;
    }
};

EpisodeCounter::EpisodeCounter(const SpikeTrains& trains, const CountOptions& options) {
    std::string reason;
    Backend backend = options.backend;
    if (backend == Backend::Auto && (is_gpu_counter(options.counter) || is_cpu_counter(options.counter))) {
        backend = is_gpu_counter(options.counter) ? Backend::Cuda : Backend::Cpu;
    }
    backend = resolve_backend(backend, &reason);
    if (backend == Backend::Cuda && options.backend == Backend::Auto && options.counter == Counter::Auto &&
        trains.num_spikes() < kSmallRecording) {
        backend = Backend::Cpu;
    }
    if (backend == Backend::Cpu && is_gpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the GPU; " +
                         (reason.empty() ? "--backend cpu takes fsm or twostep" : reason));
    }
    if (backend == Backend::Cuda && is_cpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the CPU; --backend gpu takes csw, atomic, gpufsm or prefix");
    }
    state_ = std::make_unique<State>(trains, options);
    state_->backend = backend;
    if (!reason.empty()) state_->note = "no GPU (" + reason + "): counting on the CPU";
}

EpisodeCounter::~EpisodeCounter() = default;

CountResult EpisodeCounter::count(std::span<const Episode> episodes, std::uint64_t keep_at_least) {
    State& state = *state_;
    for (const Episode& episode : episodes) validate(episode, state.trains);
    CountResult result;
    result.backend = state.backend;
    result.note = state.note;
    result.counter = state.options.counter;
    if (result.counter == Counter::Auto) {
        // Prefix when mining (it keeps lists for the next level) or counting many episodes
        // (their shared prefixes are made once); a few long episodes, whose every prefix
        // would be made in turn, go faster through the backward search.
        const bool prefix = keep_at_least != kKeepNone || episodes.size() >= kManyEpisodes;
        result.counter = prefix ? Counter::Prefix : state.backend == Backend::Cuda ? Counter::AtomicCompact : Counter::TwoStep;
    }
    try {
        if (result.counter == Counter::Prefix) {
            result.counts = state.prefix_counting().count(episodes, keep_at_least);
            return result;
        }
#ifdef SPIKEMINER_HAVE_CUDA
        if (result.backend == Backend::Cuda) {
            if (!state.gpu) state.gpu = std::make_unique<detail::GpuSpikeTimes>(state.times);
            result.counts = state.gpu->count(episodes, result.counter, state.options.gpu_memory_budget, state.options.progress);
            return result;
        }
#endif
    } catch (const GpuOutOfMemory& oom) {
        // From here on this counter counts on the CPU (the prefix counter rebuilds what it had kept).
        state.note = std::string("GPU out of memory (") + oom.what() + "): counting on the CPU";
        state.backend = Backend::Cpu;
        state.prefix.reset();
        if (state.options.counter != Counter::Auto && result.counter != Counter::Prefix) {
            state.options.counter = Counter::TwoStep;
        }
        return count(episodes, keep_at_least);
    }
    result.counts = count_on_cpu(state.times, episodes, result.counter, state.options.threads);
    return result;
}

std::vector<Occurrence> EpisodeCounter::occurrences(const Episode& episode) const {
    return detail::greedy_occurrences(state_->trains, state_->times, episode);
}

CountResult count_episodes(const SpikeTrains& trains, std::span<const Episode> episodes, const CountOptions& options) {
    return EpisodeCounter(trains, options).count(episodes);
}

}  // namespace spikeminer::mining
