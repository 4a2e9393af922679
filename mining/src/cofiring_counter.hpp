#pragma once
// The backends of CofiringWindows: each keeps the current window's counts, bin by bin, and
// picks its candidate tests (cofiring_stats.hpp).

#include "cofiring_layout.hpp"
#include "cofiring_stats.hpp"

#include "spikeminer/core/progress.hpp"

#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace spikeminer::mining::detail {

/// Counts per (end neuron, start neuron, slot), row-major, for one window.
class CofiringCounter {
public:
    virtual ~CofiringCounter() = default;
    /// Makes bins [first, last) the current window: the bins that left are taken away, those
    /// that entered are counted and added. Throws Cancelled.
    virtual void move_to(std::size_t first, std::size_t last) = 0;
    /// The current window's candidate tests at the deepest needed level or deeper
    /// (deepest_needed_level()), in any order. `rule`'s pointers are host memory.
    virtual std::vector<CofiringCandidate> candidates(const CandidateRule& rule) = 0;
    /// The whole recording's counts (cells as the window's), moved out, when the counter
    /// summed every bin's counts as its windows came (a CPU counter made to keep them, every
    /// window from the first in order, the last one current); nullopt otherwise.
    virtual std::optional<WholeRecordingCounts> take_whole_recording() { return std::nullopt; }
    /// This counter's share of the whole recording's counts (cells as the window's), when it
    /// was made to keep one (the GPU counter): each window of index a multiple of
    /// per_window adds its counts as the counter moves to it, and the last window the bins
    /// after the last such window. Counters that took every window once between them (in
    /// chunks, in any order) hold shares that sum to the whole recording's counts, every
    /// bin once. nullopt for a counter that keeps none.
    virtual std::optional<WholeRecordingShare> whole_recording_share() { return std::nullopt; }
};

/// One window's counts at some of its slots, made elsewhere (project_counts): which slots
/// they hold, and the counts (those of the other slots 0).
struct CountedElsewhere {
    std::vector<bool> slots;
    UninitializedVector<std::uint64_t> counts;
};

/// The candidate tests of `counts` ((end neuron, start neuron, slot) row-major, as a
/// counter's window) at the deepest needed level or deeper, on `threads` CPU threads.
std::vector<CofiringCandidate> candidates_of_counts(const std::uint64_t* counts, std::size_t neurons, int slots, const CandidateRule& rule,
                                                    unsigned threads);

/// Where the counters report: the work's Progress (for Cancel) and whether they report the
/// end spikes counted (when one window is all the work) or only check for Cancel.
struct CounterProgress {
    Progress* progress = nullptr;
    bool report_spikes = false;
};

/// The pieces of end spikes (stream index ranges) a bin is counted in, each small enough
/// that no count of a piece can pass 2^32 - 1 (a piece of E end spikes counts at most E
/// times the most spikes within any `reach` of time), and at most `most` long (for Cancel
/// and progress). A bin kept for later subtraction must be one piece: throws Error when it
/// is not (`one_piece`).
std::vector<std::pair<std::size_t, std::size_t>> bin_pieces(std::span<const Tick> times, TimeSpan bin, Tick reach,
                                                            bool one_piece, std::size_t most, unsigned threads);

/// Throws MemoryBudgetExceeded when `bytes` of counts would take more than `budget`, saying
/// what to change (fewer steps a window, fewer lags, a larger budget).
void check_memory(std::size_t bytes, std::size_t neurons, std::size_t steps_per_window, std::size_t budget);

/// Bytes of the CPU counter's counts for `bins`: the window's, its bins' when windows
/// slide, and the whole recording's sum when it keeps one (`whole`).
std::size_t cpu_counter_bytes(std::size_t neurons, const LagLayout& lags, const BinLayout& bins, bool whole);

/// The CPU counter (src/cpu/cofiring_counter.cpp), on `threads` threads (0: all), its counts
/// within `budget` bytes (check_memory); with `whole`, it also sums the bins for the whole
/// recording's counts (take_whole_recording). With `elsewhere` (one window only), it
/// starts from those counts (moved in) and counts only the slots they do not hold.
std::unique_ptr<CofiringCounter> make_cpu_cofiring_counter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins,
                                                           unsigned threads, std::size_t budget, CounterProgress progress, bool whole,
                                                           CountedElsewhere* elsewhere = nullptr);

#ifdef SPIKEMINER_HAVE_CUDA
/// The GPU counter (src/cuda/cofiring_counter.cu) on the current device; with `whole`
/// (and windows that slide) it keeps its share of the whole recording's counts there
/// (whole_recording_share). Throws GpuOutOfMemory when the device cannot hold a window's
/// counts.
std::unique_ptr<CofiringCounter> make_gpu_cofiring_counter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins,
                                                           CounterProgress progress, bool whole);
#endif

}  // namespace spikeminer::mining::detail
