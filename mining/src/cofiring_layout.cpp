// Lag slots, time bins and windows of the co-firing counts; validation of the options.
#include "cofiring_layout.hpp"

#include "spikeminer/core/error.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace spikeminer::mining {
namespace {

std::string lag_text(const Interval& lags) { return "(" + std::to_string(lags.lo) + ", " + std::to_string(lags.hi) + "]"; }

}  // namespace

void validate(const CofiringOptions& options) {
    const CofiringLags& lags = options.lags;
    if (lags.sync < 0 && lags.intervals.empty()) throw UsageError("co-firing needs synchrony or at least one interval to test");
    if (lags.intervals.size() > static_cast<std::size_t>(detail::kMaxIntervals)) {
        throw UsageError("co-firing tests at most " + std::to_string(detail::kMaxIntervals) + " intervals");
    }
    std::vector<Interval> tested;
    if (lags.sync > 0) tested.push_back({0, lags.sync});
    for (std::size_t k = 0; k < lags.intervals.size(); ++k) {
        const Interval& interval = lags.intervals[k];
        if (interval.lo < 0 || interval.lo >= interval.hi) {
            throw UsageError("co-firing interval " + lag_text(interval) + " ticks is empty: need 0 <= lo < hi");
        }
        if (k > 0 && interval.lo < lags.intervals[k - 1].hi) {
            throw UsageError("co-firing intervals " + lag_text(lags.intervals[k - 1]) + " and " + lag_text(interval) +
                             " ticks overlap or are out of order");
        }
    }
    const Interval& base = lags.baseline;
    if (base.lo < 0 || base.lo >= base.hi) throw UsageError("the co-firing baseline " + lag_text(base) + " ticks is empty: need 0 <= lo < hi");
    for (const Interval& interval : lags.intervals) tested.push_back(interval);
    for (const Interval& t : tested) {
        if (base.lo < t.hi) {
            throw UsageError("the co-firing baseline " + lag_text(base) + " ticks must lie beyond the tested lags, " +
                             lag_text(t) + " among them");
        }
    }
    if (options.window < 0 || options.step < 0) throw UsageError("the co-firing window and step must not be negative");
    if ((options.window == 0) != (options.step == 0)) {
        throw UsageError("give the co-firing window and step both (or neither, for the whole recording as one window)");
    }
    if (options.window != 0 && options.window < options.step) throw UsageError("the co-firing window is shorter than its step");
    if (options.window != 0 && options.window % options.step != 0) {
        throw UsageError("the co-firing window (" + std::to_string(options.window) + " ticks) must be a whole number of steps (" +
                         std::to_string(options.step) + " ticks)");
    }
    const EdgeTest& test = options.test;
    if (!(test.q > 0)) throw UsageError("the edge test's q must be above 0 (1 or more turns the test off)");
    if (!(test.min_ratio >= 0) || std::isnan(test.min_z)) throw UsageError("the edge thresholds must be numbers, the ratio not negative");
}

CofiringLags parse_lags(const std::string& sync, const std::string& intervals, const std::string& baseline,
                        const TimeBase& time_base, const std::string& unit) {
    CofiringLags lags;
    if (sync != "off") {
        try {
            lags.sync = parse_ticks(sync, unit, time_base);
        } catch (const Error& e) {
            throw UsageError("synchrony '" + sync + "': " + e.what());
        }
    }
    if (!intervals.empty()) lags.intervals = parse_intervals(intervals, time_base, unit);
    const std::vector<Interval> base = parse_intervals(baseline, time_base, unit);
    if (base.size() != 1) throw UsageError("baseline '" + baseline + "': give one lag range lo-hi");
    lags.baseline = base.front();
    return lags;
}

namespace detail {
namespace {

SlotRun run_of(const LagLayout& layout, const Interval& range) {
    SlotRun run{layout.slots, layout.slots};
    for (int s = layout.first_positive; s < layout.slots; ++s) {
        if (layout.lo[s] >= range.lo && layout.hi[s] <= range.hi) {
            run.first = std::min(run.first, s);
            run.last = s + 1;
        }
    }
    return run;
}

}  // namespace

std::uint64_t grid_lags(const Interval& range, Tick grid) {
    const auto floor_div = [grid](Tick t) { return t / grid; };  // t >= 0
    return static_cast<std::uint64_t>(floor_div(range.hi) - floor_div(range.lo));
}

LagLayout lay_out(const CofiringLags& lags, Tick grid) {
    LagLayout layout;
    layout.grid = grid;
    layout.synchrony = lags.sync >= 0;
    std::vector<Tick> points;
    std::vector<Interval> covered;
    if (layout.synchrony && lags.sync > 0) covered.push_back({0, lags.sync});
    for (const Interval& interval : lags.intervals) covered.push_back(interval);
    covered.push_back(lags.baseline);
    for (const Interval& range : covered) {
        points.push_back(range.lo);
        points.push_back(range.hi);
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    layout.first_positive = layout.synchrony ? 1 : 0;
    layout.slots = layout.first_positive;
    if (layout.synchrony) {
        layout.lo[0] = -1;
        layout.hi[0] = 0;
    }
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const Interval piece{points[i], points[i + 1]};
        const bool used = std::any_of(covered.begin(), covered.end(), [&](const Interval& c) { return c.lo <= piece.lo && piece.hi <= c.hi; });
        if (!used) continue;
        layout.lo[layout.slots] = piece.lo;
        layout.hi[layout.slots] = piece.hi;
        ++layout.slots;
    }
    if (layout.synchrony) {
        layout.sync_run = lags.sync > 0 ? run_of(layout, {0, lags.sync}) : SlotRun{1, 1};
        layout.sync_lags = 2 * static_cast<std::uint64_t>(lags.sync / grid) + 1;
    }
    layout.intervals = static_cast<int>(lags.intervals.size());
    for (int k = 0; k < layout.intervals; ++k) {
        layout.interval_runs[k] = run_of(layout, lags.intervals[static_cast<std::size_t>(k)]);
        layout.interval_lags[k] = grid_lags(lags.intervals[static_cast<std::size_t>(k)], grid);
    }
    layout.baseline_run = run_of(layout, lags.baseline);
    layout.baseline_lags = 2 * grid_lags(lags.baseline, grid);
    layout.reach = lags.baseline.hi;
    return layout;
}

std::vector<Interval> slot_ranges(const LagLayout& layout) {
    std::vector<Interval> ranges;
    for (int s = 0; s < layout.slots; ++s) ranges.push_back({layout.lo[s], layout.hi[s]});
    return ranges;
}

UninitializedVector<std::uint64_t> project_counts(std::span<const std::uint64_t> counts, const std::vector<Interval>& from,
                                                 const LagLayout& to, std::size_t neurons, unsigned threads, std::vector<bool>& covered) {
    const std::size_t pairs = neurons * neurons;
    const std::size_t width = from.size();
    const auto slots = static_cast<std::size_t>(to.slots);
    covered.assign(slots, false);
    UninitializedVector<std::uint64_t> projected(pairs * slots);
    // The run of `from` slots each slot of `to` sums, where they follow one another without a
    // gap from its lo to its hi.
    std::vector<SlotRun> runs(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        SlotRun& run = runs[s];
        while (run.first < static_cast<int>(width) && from[static_cast<std::size_t>(run.first)].lo < to.lo[s]) ++run.first;
        Tick reached = to.lo[s];
        run.last = run.first;
        while (run.last < static_cast<int>(width) && from[static_cast<std::size_t>(run.last)].lo == reached &&
               from[static_cast<std::size_t>(run.last)].hi <= to.hi[s]) {
            reached = from[static_cast<std::size_t>(run.last)].hi;
            ++run.last;
        }
        covered[s] = reached == to.hi[s];
        if (!covered[s]) run.last = run.first;
    }
    const auto n = static_cast<std::ptrdiff_t>(pairs);
#pragma omp parallel for schedule(static) num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    for (std::ptrdiff_t p = 0; p < n; ++p) {
        const std::uint64_t* in = counts.data() + static_cast<std::size_t>(p) * width;
        std::uint64_t* out = projected.data() + static_cast<std::size_t>(p) * slots;
        for (std::size_t s = 0; s < slots; ++s) {
            std::uint64_t sum = 0;
            for (int f = runs[s].first; f < runs[s].last; ++f) sum += in[f];
            out[s] = sum;
        }
    }
    return projected;
}

LookBacks look_backs(const LagLayout& layout, const std::vector<bool>& skipped, const std::vector<bool>& alone) {
    const auto marked = [](const std::vector<bool>& marks, int s) { return static_cast<std::size_t>(s) < marks.size() && marks[static_cast<std::size_t>(s)]; };
    LookBacks out;
    for (int s = 0; s < layout.slots; ++s) {
        if (marked(skipped, s)) continue;
        if (out.count > 0 && !marked(alone, s) && !marked(alone, s - 1) && out.runs[out.count - 1].hi == layout.lo[s] &&
            out.runs[out.count - 1].last_slot == s - 1) {
            out.runs[out.count - 1].hi = layout.hi[s];
            out.runs[out.count - 1].last_slot = s;
        } else {
            out.runs[out.count++] = LookBack{layout.lo[s], layout.hi[s], s};
        }
    }
    return out;
}

Tick time_grid(std::span<const Tick> times, unsigned threads) {
    // The gcd of the differences from the first time is that of the differences between
    // neighbours, mostly 0 or a repeat of the last one; the threads take a share each.
    Tick grid = 0;
    const auto n = static_cast<std::ptrdiff_t>(times.size());
#pragma omp parallel num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    {
        Tick mine = 0;
        Tick last = 0;
#pragma omp for schedule(static) nowait
        for (std::ptrdiff_t i = 1; i < n; ++i) {
            const Tick step = times[static_cast<std::size_t>(i)] - times[static_cast<std::size_t>(i - 1)];
            if (step == 0 || step == last || mine == 1) continue;
            last = step;
            mine = std::gcd(mine, step);
        }
#pragma omp critical
        grid = std::gcd(grid, mine);
    }
    return std::max<Tick>(grid, 1);
}

TimeSpan BinLayout::bin(std::size_t b) const {
    const Tick start = origin + static_cast<Tick>(b) * step;
    return {start, std::min(end, start + step)};
}

TimeSpan BinLayout::window(std::size_t w) const { return {bin(w).start, bin(last_bin(w) - 1).end}; }

ShareOfWindow share_of_window(const BinLayout& bins, std::size_t w) {
    ShareOfWindow share;
    share.window = w % bins.per_window == 0;
    if (w + 1 == bins.windows) {
        share.tail_first = w / bins.per_window * bins.per_window + bins.per_window;
        share.tail_last = std::max(share.tail_first, bins.last_bin(w));
    }
    return share;
}

BinLayout lay_out_bins(const SpikeTrains& trains, const CofiringOptions& options, std::string& note) {
    BinLayout layout;
    TimeSpan span = trains.span();
    const auto times = trains.times();
    if (!times.empty()) {
        span.start = std::min(span.start, times.front());
        span.end = std::max(span.end, times.back() + 1);
    }
    if (options.origin) span.start = *options.origin;
    if (span.end <= span.start) span.end = span.start + 1;
    layout.origin = span.start;
    layout.end = span.end;
    const Tick length = span.end - span.start;
    if (options.window == 0) {
        layout.step = length;
        return layout;
    }
    layout.step = options.step;
    layout.bins = static_cast<std::size_t>((length + options.step - 1) / options.step);
    layout.per_window = static_cast<std::size_t>(options.window / options.step);
    if (layout.bins < layout.per_window) {
        note = "the recording (" + std::to_string(length) + " ticks) is shorter than one window (" + std::to_string(options.window) +
               " ticks): one window over all of it";
        layout.per_window = layout.bins;
    }
    layout.windows = layout.bins - layout.per_window + 1;
    return layout;
}

std::size_t first_at_or_after(std::span<const Tick> times, Tick t) {
    return static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
}

}  // namespace detail
}  // namespace spikeminer::mining
