#pragma once

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/chance.hpp"
#include "spikeminer/mining/episode.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace spikeminer::mining {

/// How episodes are counted. Every counter returns the same counts (the size of the
/// largest set of non-overlapped occurrences); they differ in speed.
enum class Counter {
    Auto,            ///< on the GPU when there is one and the recording is not tiny: prefix when mining
                     ///< or counting 256 episodes or more, else AtomicCompact (GPU) or TwoStep (CPU)
    Fsm,             ///< CPU streaming finite-state counter, one thread (the papers' baseline)
    TwoStep,         ///< CPU: latest start for every end event, then greedy scheduling; all threads
    CountScanWrite,  ///< GPU: backward search, count / scan / write per node, no sort
    AtomicCompact,   ///< GPU: backward search, atomic compaction, radix sort and unique per node
    Prefix,          ///< CPU or GPU: each episode's latest start per end event, extended from its
                     ///< prefix's (kept between mining levels); the prefix's extensions at once
    GpuFsm,          ///< GPU: the streaming finite-state counter, one thread per episode
};

/// count()'s default: keep no episode's end list for the next call.
inline constexpr std::uint64_t kKeepNone = ~std::uint64_t{0};

/// "auto", "fsm", "twostep", "csw", "atomic", "prefix", "gpufsm".
std::string counter_name(Counter counter);
/// Parses --counter; throws UsageError listing the choices.
Counter parse_counter(const std::string& name);

struct CountOptions {
    Counter counter = Counter::Auto;
    Backend backend = Backend::Auto;
    unsigned threads = 0;                 ///< CPU threads; 0 = all
    std::size_t gpu_memory_budget = 0;    ///< bytes for the GPU search; 0 = half the free memory
    std::size_t memory_budget = 0;        ///< bytes of host memory a mining level may take; 0 = host_memory_budget's default
    /// CUDA devices (empty: the current one). Several share the prefix counter's extensions,
    /// each keeping the end lists it makes; the other GPU counters and the surrogates run on
    /// the first.
    std::vector<int> devices = {};
    Progress* progress = nullptr;
};

/// One occurrence: the stream positions of its events, node by node.
struct Occurrence {
    std::vector<std::uint32_t> events;
};

struct CountResult {
    std::vector<std::uint64_t> counts;  ///< one per episode
    Counter counter = Counter::Auto;    ///< the counter that ran
    Backend backend = Backend::Cpu;     ///< where it ran
    std::string note;                   ///< why a fallback happened, if one did
};

/// Counts episodes over one recording, keeping between calls what every call needs: the
/// spike times grouped by neuron and, once the GPU is used, their copy on the device.
/// Mining counts level after level through one EpisodeCounter.
class EpisodeCounter {
public:
    /// Resolves the backend (Error when --backend gpu has no device; UsageError when the
    /// counter does not run on the backend). The trains must outlive the counter.
    EpisodeCounter(const SpikeTrains& trains, const CountOptions& options);
    ~EpisodeCounter();
    EpisodeCounter(const EpisodeCounter&) = delete;
    EpisodeCounter& operator=(const EpisodeCounter&) = delete;

    /// Counts every episode (all of one length or not). Throws Error for an invalid episode.
    /// The prefix counter keeps the end lists of the episodes counted at least
    /// `keep_at_least`, so that the next call counts their one-node extensions in one step
    /// each (mining passes a level's threshold); the other counters keep nothing.
    CountResult count(std::span<const Episode> episodes, std::uint64_t keep_at_least = kKeepNone);

    /// For each episode of two or more nodes, the pairs of the ends of its prefix's
    /// occurrences and its last neuron's spikes at its last gap and at the `baseline` lags
    /// (both ways): the counts of the test against chance (chance.hpp). Made from the
    /// prefix counter's lists on the counter's backend; those of prefixes it had to make
    /// stay for the next count() when the counter is the prefix one.
    std::vector<LagCounts> lag_counts(std::span<const Episode> episodes, const Interval& baseline);

    /// Counts episodes of two or more nodes in surrogate `index` of the recording
    /// (make_surrogate's spikes). On the GPU the surrogate is made on the device and counted
    /// there by the prefix counter, whatever the counter chosen (they all count alike); on
    /// the CPU it is made here and counted by the chosen counter.
    CountResult count_in_surrogate(const SurrogateOptions& surrogate, std::uint64_t index, std::span<const Episode> episodes);

    /// A largest set of non-overlapped occurrences of `episode` (on the CPU): the greedy
    /// one, taking at each step the occurrence that ends first and, among those, the one
    /// that starts last.
    [[nodiscard]] std::vector<Occurrence> occurrences(const Episode& episode) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// One-off counting: EpisodeCounter(trains, options).count(episodes).
CountResult count_episodes(const SpikeTrains& trains, std::span<const Episode> episodes, const CountOptions& options = {});

/// One-off: EpisodeCounter(trains, {cpu}).occurrences(episode).
std::vector<Occurrence> find_occurrences(const SpikeTrains& trains, const Episode& episode);

}  // namespace spikeminer::mining
