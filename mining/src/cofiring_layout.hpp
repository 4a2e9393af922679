#pragma once
// How co-firing counts are laid out: lag slots, the tests as runs of slots, time bins and
// windows. Shared by the CPU and GPU counters (plain data, copied into kernels by value).

#include "spikeminer/mining/cofiring.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// Most positive-lag slots: every interval, synchrony and the baseline cut the lag axis
/// into at most 2 (intervals + 2) pieces.
inline constexpr int kMaxSlots = 24;
/// Most intervals.
inline constexpr int kMaxIntervals = 8;

/// A run of consecutive slots [first, last).
struct SlotRun {
    int first = 0;
    int last = 0;
};

/// The lag axis cut into slots, each covering the lags (lo, hi], in increasing order,
/// possibly with gaps (lags in a gap are not counted). Slot 0 is lag 0 alone, (-1, 0],
/// when synchrony is tested. Each test is a run of positive slots, plus slot 0 for
/// synchrony.
struct LagLayout {
    int slots = 0;                   ///< all slots, lag 0 included
    int first_positive = 0;          ///< 1 with synchrony, else 0
    Tick lo[kMaxSlots] = {};         ///< slot s covers lags (lo[s], hi[s]]
    Tick hi[kMaxSlots] = {};
    bool synchrony = false;
    SlotRun sync_run;                ///< the positive slots of (0, sync]
    int intervals = 0;
    SlotRun interval_runs[kMaxIntervals];
    SlotRun baseline_run;
    /// Grid lags in each test's range: synchrony 2 floor(sync/g) + 1, interval k floor(hi/g)
    /// - floor(lo/g), and the baseline both ways 2 (floor(hi/g) - floor(lo/g)).
    std::uint64_t sync_lags = 0;
    std::uint64_t interval_lags[kMaxIntervals] = {};
    std::uint64_t baseline_lags = 0;
    Tick reach = 0;                  ///< the longest lag counted
    Tick grid = 1;                   ///< spike times lie on origin + k grid

    /// Tests per unordered pair: synchrony (if tested) and, both ways, every interval that
    /// holds a lag of the time grid (one that holds none can count nothing).
    [[nodiscard]] int tests_per_pair() const {
        int tests = synchrony ? 1 : 0;
        for (int k = 0; k < intervals; ++k) tests += interval_lags[k] > 0 ? 2 : 0;
        return tests;
    }
};

/// Lags of the time grid in (lo, hi] (0 <= lo < hi): floor(hi / grid) - floor(lo / grid).
std::uint64_t grid_lags(const Interval& range, Tick grid);

/// Lays out `lags` for spikes on a grid of `grid` ticks (see validate() for the checks).
LagLayout lay_out(const CofiringLags& lags, Tick grid);

/// The slots of `layout` as lag ranges (lo, hi] ((-1, 0]: lag 0).
std::vector<Interval> slot_ranges(const LagLayout& layout);

/// Counts of `neurons` x `neurons` pairs at the slots `from` (as slot_ranges gives them)
/// summed into the slots of `to` that a run of slots of `from` makes up, `covered` saying
/// which those are (the others' counts 0).
UninitializedVector<std::uint64_t> project_counts(std::span<const std::uint64_t> counts, const std::vector<Interval>& from,
                                                 const LagLayout& to, std::size_t neurons, unsigned threads, std::vector<bool>& covered);

/// Adjacent slots merged: a range of lags (lo, hi] an end spike looks back over, and its
/// last slot (the lags fall, slot by slot, as the look-back walks forward in time).
struct LookBack {
    Tick lo = 0;
    Tick hi = 0;
    int last_slot = 0;
};

/// The look-backs of a layout, in increasing lag.
struct LookBacks {
    int count = 0;
    LookBack runs[kMaxSlots];
};

/// The look-backs over the slots of `layout` but those `skipped` marks (counted elsewhere);
/// a slot `alone` marks is a look-back of its own, merged with none.
LookBacks look_backs(const LagLayout& layout, const std::vector<bool>& skipped = {}, const std::vector<bool>& alone = {});

/// The greatest common divisor of the differences between spike times (1 when there is
/// one spike or none): the grid the times lie on, whose lags chance spreads over evenly.
/// On `threads` threads (0: all).
Tick time_grid(std::span<const Tick> times, unsigned threads);

/// The recording's time cut into bins of one step, and the windows as runs of bins.
struct BinLayout {
    Tick origin = 0;          ///< start of bin 0
    Tick step = 1;            ///< bin width
    std::size_t bins = 1;     ///< bins covering the recording (the last may reach past its end)
    std::size_t per_window = 1;
    std::size_t windows = 1;
    Tick end = 1;             ///< end of the recording (exclusive)

    /// Bin b covers [origin + b step, origin + (b + 1) step), clipped to the recording.
    [[nodiscard]] TimeSpan bin(std::size_t b) const;
    /// Window w covers bins [w, w + per_window) (clipped to the bins there are).
    [[nodiscard]] TimeSpan window(std::size_t w) const;
    [[nodiscard]] std::size_t last_bin(std::size_t w) const { return std::min(w + per_window, bins); }
};

/// What window w adds to its counter's share of the whole recording (the GPU counter's
/// whole_recording_share): windows 0, per_window, 2 per_window ... add their counts (they
/// tile the bins up to the last of them), and the last window its bins [tail_first,
/// tail_last) after those. Windows that cover every bin between them add each bin once.
struct ShareOfWindow {
    bool window = false;
    std::size_t tail_first = 0;
    std::size_t tail_last = 0;
};
ShareOfWindow share_of_window(const BinLayout& bins, std::size_t w);

/// Bins and windows for `options` over the trains' span (widened to every spike). Sets
/// `note` when the recording is shorter than one window.
BinLayout lay_out_bins(const SpikeTrains& trains, const CofiringOptions& options, std::string& note);

/// The first stream index whose time is at least `t`.
std::size_t first_at_or_after(std::span<const Tick> times, Tick t);

}  // namespace spikeminer::mining::detail
