// Dispatch of count_episodes: backend and counter choice, GPU fallback to the CPU.
#include "spikeminer/mining/count.hpp"

#include "cpu/cpu_counters.hpp"
#include "gpu_counting.hpp"
#include "prefix_counting.hpp"
#include "shared_list_store.hpp"
#include "tuning.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"
#include "spikeminer/core/neuron_times.hpp"

#include <algorithm>

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

using tuning::kManyEpisodes;
using tuning::kSmallRecording;

std::vector<std::uint64_t> count_with_cpu_counter(const NeuronTimes& times, std::span<const Episode> episodes,
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
    BackendChoice choice;
    NeuronTimes times;
#ifdef SPIKEMINER_HAVE_CUDA
    std::unique_ptr<detail::GpuSpikeTimes> gpu;  // made at the first GPU count
    std::unique_ptr<detail::GpuSurrogates> surrogates;  // made at the first GPU surrogate count
#endif
    std::unique_ptr<detail::PrefixCounting> prefix;  // made at the first prefix count
    std::unique_ptr<SurrogateTrains> cpu_surrogates;  // made at the first CPU surrogate count, for these options:
    SurrogateOptions cpu_surrogate_options;
    Backend prefix_backend = Backend::Cpu;           // where `prefix` keeps its lists
    State(const SpikeTrains& t, const CountOptions& o, BackendChoice c) : trains(t), options(o), choice(std::move(c)), times(t) {}

    // Prefix ends read at once for the test against chance: at most an eighth of the budget.
    [[nodiscard]] std::uint64_t lag_entries() const {
        return std::min<std::uint64_t>(tuning::kLagCountEntries, host_memory_budget(options.memory_budget) / 8 / sizeof(Tick));
    }

    // Extensions a call to a list store takes: an eighth of the memory budget for its
    // per-extension work and the lists it makes (at most a list of one entry per spike of
    // the extension's neuron, an average neuron's on average), the rest for the lists kept
    // before and the level's candidates.
    [[nodiscard]] std::size_t chunk() const {
        const double per_neuron = static_cast<double>(trains.num_spikes()) / static_cast<double>(std::max<std::size_t>(1, trains.num_neurons()));
        const double per_extension = static_cast<double>(tuning::kExtensionBytes) + 2 * sizeof(Tick) * per_neuron;
        return static_cast<std::size_t>(static_cast<double>(host_memory_budget(options.memory_budget)) / 8 / per_extension);
    }

    detail::PrefixCounting& prefix_counting(Backend backend) {
        if (prefix && prefix_backend != backend) prefix.reset();  // after a fallback: rebuilt on the CPU
        if (!prefix) {
            prefix_backend = Backend::Cpu;
#ifdef SPIKEMINER_HAVE_CUDA
            if (backend == Backend::Cuda) {
                prefix = std::make_unique<detail::PrefixCounting>(gpu_list_store(), times, chunk(), options.progress,
                                                                  host_memory_budget(options.memory_budget));
                prefix_backend = Backend::Cuda;
            }
#endif
            if (!prefix) {
                prefix = std::make_unique<detail::PrefixCounting>(
                    detail::make_cpu_list_store(trains, times, options.threads, options.progress), times, chunk(), options.progress,
                    host_memory_budget(options.memory_budget));
            }
        }
        return *prefix;
    }

#ifdef SPIKEMINER_HAVE_CUDA
    // On the current device, or shared over several, each with its own copy of the spikes.
    std::unique_ptr<detail::ListStore> gpu_list_store() {
        if (options.devices.size() < 2) return detail::make_gpu_list_store(trains, times, options.gpu_memory_budget, options.progress);
        return std::make_unique<detail::SharedListStore>(options.devices, times, options.progress, [&](std::size_t i, Progress* progress) {
            // A device named k times holds k stores, each with a k-th of its default budget.
            const auto named = static_cast<std::size_t>(std::count(options.devices.begin(), options.devices.end(), options.devices[i]));
            const std::size_t budget = options.gpu_memory_budget != 0 ? options.gpu_memory_budget : detail::default_gpu_budget() / named;
            return detail::make_gpu_list_store(trains, times, budget, progress);
        });
    }
#endif

    std::vector<std::uint64_t> count_on_gpu(std::span<const Episode> episodes, Counter counter, std::uint64_t keep_at_least) {
        if (counter == Counter::Prefix) return prefix_counting(Backend::Cuda).count(episodes, keep_at_least);
#ifdef SPIKEMINER_HAVE_CUDA
        if (!gpu) gpu = std::make_unique<detail::GpuSpikeTimes>(times);
        return gpu->count(episodes, counter, options.gpu_memory_budget, options.progress);
#else
        throw Error("this build has no GPU engines");
#endif
    }

    std::vector<std::uint64_t> count_surrogate_on_gpu(const SurrogateOptions& surrogate, std::uint64_t index,
                                                      std::span<const Episode> episodes) {
#ifdef SPIKEMINER_HAVE_CUDA
        if (surrogates && surrogates->options() != surrogate) surrogates.reset();
        if (!surrogates) surrogates = std::make_unique<detail::GpuSurrogates>(trains, times, surrogate, options.gpu_memory_budget);
        surrogates->make(index);
        return surrogates->count(episodes);
#else
        (void)surrogate, (void)index, (void)episodes;
        throw Error("this build has no GPU engines");
#endif
    }

    // The surrogate made here of the episodes' neurons only (the others decide no count),
    // from what every surrogate shares, made once.
    std::vector<std::uint64_t> count_surrogate_on_cpu(const SurrogateOptions& surrogate, std::uint64_t index,
                                                      std::span<const Episode> episodes, Counter& counter) {
        release_device();
        CountOptions cpu = options;
        cpu.backend = Backend::Cpu;
        cpu.progress = nullptr;  // the surrogates' loop shows the progress
        if (is_gpu_counter(cpu.counter)) cpu.counter = Counter::TwoStep;
        // Pairs extend one-node seeds: the prefix counter builds no list for them and counts
        // each first neuron's pairs at once, about twice as fast as two-step.
        const bool pairs = std::all_of(episodes.begin(), episodes.end(), [](const Episode& e) { return e.size() == 2; });
        if (cpu.counter == Counter::Auto && pairs) cpu.counter = Counter::Prefix;
        std::vector<bool> used(trains.num_neurons(), false);
        for (const Episode& episode : episodes) {
            for (const NeuronId n : episode.neurons) used[n] = true;
        }
        if (!cpu_surrogates || cpu_surrogate_options != surrogate) {
            cpu_surrogates = std::make_unique<SurrogateTrains>(trains, surrogate);
            cpu_surrogate_options = surrogate;
        }
        CountResult counted = count_episodes(cpu_surrogates->whole(index, used), episodes, cpu);
        counter = counted.counter;
        return std::move(counted.counts);
    }

    // After a fallback from the GPU the device copies of the spike times are given back.
    void release_device() {
#ifdef SPIKEMINER_HAVE_CUDA
        gpu.reset();
        surrogates.reset();
#endif
    }

    // After a fallback from the GPU a GPU counter gives way to the two-step counter.
    std::vector<std::uint64_t> count_on_cpu(std::span<const Episode> episodes, Counter& counter, std::uint64_t keep_at_least) {
        release_device();
        if (counter == Counter::Prefix) return prefix_counting(Backend::Cpu).count(episodes, keep_at_least);
        if (is_gpu_counter(counter)) counter = Counter::TwoStep;
        return count_with_cpu_counter(times, episodes, counter, options.threads);
    }
};

EpisodeCounter::EpisodeCounter(const SpikeTrains& trains, const CountOptions& options) {
    Backend requested = options.backend;
    if (requested == Backend::Auto && is_gpu_counter(options.counter)) requested = Backend::Cuda;
    if (requested == Backend::Auto && is_cpu_counter(options.counter)) requested = Backend::Cpu;
    const bool small = options.counter == Counter::Auto && trains.num_spikes() < kSmallRecording;
    BackendChoice choice = choose_backend(
        requested, small ? std::to_string(trains.num_spikes()) + " spikes, which the CPU counts before a GPU starts" : "");
    if (choice.backend == Backend::Cpu && is_gpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the GPU; the CPU backend takes fsm, twostep or prefix");
    }
    if (choice.backend == Backend::Cuda && is_cpu_counter(options.counter)) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on the CPU; the GPU backend takes csw, atomic, gpufsm or prefix");
    }
    for (const int device : options.devices) {
        if (device < 0) throw UsageError("device " + std::to_string(device) + " does not exist: devices are numbered from 0");
    }
    if (choice.backend == Backend::Cuda && options.devices.size() > 1 && options.counter != Counter::Auto &&
        options.counter != Counter::Prefix) {
        throw UsageError("counter " + counter_name(options.counter) + " runs on one device; the prefix counter shares its work over several");
    }
    if (choice.backend == Backend::Cuda && !options.devices.empty()) use_device(options.devices.front());
    state_ = std::make_unique<State>(trains, options, std::move(choice));
}

EpisodeCounter::~EpisodeCounter() = default;

CountResult EpisodeCounter::count(std::span<const Episode> episodes, std::uint64_t keep_at_least) {
    State& state = *state_;
    for (const Episode& episode : episodes) validate(episode, state.trains);
    CountResult result;
    result.counter = state.options.counter;
    if (result.counter == Counter::Auto) {
        // Prefix when mining (it keeps lists for the next level) or counting many episodes
        // (their shared prefixes are made once); a few long episodes, whose every prefix
        // would be made in turn, go faster through the backward search.
        const bool prefix = keep_at_least != kKeepNone || episodes.size() >= kManyEpisodes;
        result.counter = prefix ? Counter::Prefix : state.choice.backend == Backend::Cuda ? Counter::AtomicCompact : Counter::TwoStep;
    }
    result.counts = run_with_fallback(
        state.choice, [&] { return state.count_on_gpu(episodes, result.counter, keep_at_least); },
        [&] { return state.count_on_cpu(episodes, result.counter, keep_at_least); });
    result.backend = state.choice.backend;
    result.note = state.choice.note;
    return result;
}

std::vector<LagCounts> EpisodeCounter::lag_counts(std::span<const Episode> episodes, const Interval& baseline) {
    State& state = *state_;
    for (const Episode& episode : episodes) {
        validate(episode, state.trains);
        if (episode.size() < 2) throw UsageError("an episode of one node has no delay to test against chance");
    }
    // Other counters extend no list: the prefixes made for the test go with it.
    const bool prefix_counts = state.options.counter == Counter::Auto || state.options.counter == Counter::Prefix;
    const auto on = [&](Backend backend) {
        std::vector<LagCounts> counts = state.prefix_counting(backend).lag_counts(episodes, baseline, state.options.threads,
                                                                                state.lag_entries(), state.options.progress);
        if (!prefix_counts) state.prefix.reset();
        return counts;
    };
    return run_with_fallback(
        state.choice, [&] { return on(Backend::Cuda); },
        [&] {
            state.release_device();
            return on(Backend::Cpu);
        });
}

CountResult EpisodeCounter::count_in_surrogate(const SurrogateOptions& surrogate, std::uint64_t index,
                                               std::span<const Episode> episodes) {
    State& state = *state_;
    for (const Episode& episode : episodes) {
        validate(episode, state.trains);
        if (episode.size() < 2) throw UsageError("surrogates are counted for episodes of two or more nodes");
    }
    CountResult result;
    result.counter = state.options.counter;
    result.counts = run_with_fallback(
        state.choice,
        [&] {
            result.counter = Counter::Prefix;
            return state.count_surrogate_on_gpu(surrogate, index, episodes);
        },
        [&] { return state.count_surrogate_on_cpu(surrogate, index, episodes, result.counter); });
    result.backend = state.choice.backend;
    result.note = state.choice.note;
    return result;
}

std::vector<Occurrence> EpisodeCounter::occurrences(const Episode& episode) const {
    return detail::greedy_occurrences(state_->trains, state_->times, episode);
}

CountResult count_episodes(const SpikeTrains& trains, std::span<const Episode> episodes, const CountOptions& options) {
    return EpisodeCounter(trains, options).count(episodes);
}

}  // namespace spikeminer::mining
