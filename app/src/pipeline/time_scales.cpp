// See time_scales.hpp.
#include "spikeminer/app/pipeline/time_scales.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/episode.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace spikeminer::pipeline {
namespace {

// The share of the small differences that must lie on the grid for the times to be on one.
constexpr double kOnGrid = 0.9;
// Differences up to this many grid steps decide it (rounding grows with the multiple).
constexpr double kStepsLooked = 20;
// Windows hold at least this many spikes of the median neuron (fewer cannot show a pair
// firing together beyond chance), and last at least this many seconds.
constexpr double kWindowSpikes = 50;
constexpr double kShortestWindow = 10;
// The differences looked at: up to this many blocks of this many consecutive spikes.
constexpr std::size_t kSampledBlocks = 256;
constexpr std::size_t kBlockSpikes = 16384;

std::string ms_text(double ticks, const TimeBase& time_base) {
    return format_ticks(static_cast<Tick>(std::llround(ticks)), time_base, "ms");
}

std::string range_text(double lo, double hi, const TimeBase& time_base) {
    return ms_text(lo, time_base) + "-" + ms_text(hi, time_base);
}

// Whether (lo, hi] holds a lag of a grid of `grid` ticks (0: every tick is on it).
bool holds_grid_lag(const mining::Interval& range, double grid) {
    if (grid <= 1) return range.hi > range.lo;
    const double slack = std::max(1.0, grid / 100);  // rounded times lie within a tick or so of the grid
    const double k = std::floor((static_cast<double>(range.hi) + slack) / grid);
    return k >= 1 && k * grid > static_cast<double>(range.lo) - slack;
}

void check_on_grid(const std::vector<mining::Interval>& ranges, const std::string& what, double grid, const TimeBase& time_base) {
    for (const mining::Interval& range : ranges) {
        if (holds_grid_lag(range, grid)) continue;
        char step[64];
        std::snprintf(step, sizeof step, "%.4g ms", grid * 1000 * time_base.tick_seconds());
        throw UsageError(what + " " + range_text(static_cast<double>(range.lo), static_cast<double>(range.hi), time_base) +
                         " ms holds no lag of the recording's time grid (spikes every " + step +
                         "): give lags that span a multiple of it, or auto");
    }
}

// The firing rate of the median neuron that fires (Hz); 0 when none does.
double median_rate(const SpikeTrains& trains) {
    const double seconds = trains.time_base().to_seconds(trains.span().length());
    std::vector<double> rates;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        if (trains.spike_count(n) > 0) rates.push_back(static_cast<double>(trains.spike_count(n)) / seconds);
    }
    if (rates.empty() || !(seconds > 0)) return 0;
    const auto middle = rates.begin() + static_cast<std::ptrdiff_t>(rates.size() / 2);
    std::nth_element(rates.begin(), middle, rates.end());
    return *middle;
}

// Sets auto windows and steps (0): windows of at least 10 s that hold kWindowSpikes spikes
// of the median neuron, in ten steps of whole seconds; a given step or window decides the
// other. Returns what was chosen and why.
std::string resolve_windows(RunConfig& config, const SpikeTrains& trains) {
    if (config.window_s > 0 && config.step_s > 0) return {};
    const double rate = median_rate(trains);
    const double wanted = std::max(kShortestWindow, rate > 0 ? kWindowSpikes / rate : kShortestWindow);
    if (config.window_s > 0) {
        config.step_s = config.window_s / 10;
    } else if (config.step_s > 0) {
        config.window_s = config.step_s * std::max(1.0, std::ceil(wanted / config.step_s - 1e-9));
    } else {
        config.step_s = std::ceil(wanted / 10 - 1e-9);
        config.window_s = 10 * config.step_s;
    }
    char text[200];
    std::snprintf(text, sizeof text, "; windows of %g s every %g s (the median neuron fires at %.3g Hz: %g spikes in a window)", config.window_s,
                  config.step_s, rate, rate * config.window_s);
    return text;
}

}  // namespace

double spike_time_grid(const SpikeTrains& trains) {
    // Blocks of consecutive spikes spread over the recording (the whole of a small one):
    // enough differences to tell a grid, at a bounded cost.
    const auto times = trains.times();
    const std::size_t blocks = std::max<std::size_t>(1, times.size() / kSampledBlocks / kBlockSpikes);
    const auto for_each_gap = [&](const auto& use) {
        for (std::size_t first = 0; first + 1 < times.size(); first += blocks * kBlockSpikes) {
            const std::size_t last = std::min(times.size(), first + kBlockSpikes);
            for (std::size_t i = first + 1; i < last; ++i) {
                if (times[i] != times[i - 1]) use(static_cast<double>(times[i] - times[i - 1]));
            }
        }
    };
    double smallest = 0;
    for_each_gap([&](double gap) { smallest = smallest == 0 ? gap : std::min(smallest, gap); });
    if (smallest <= 1) return 0;
    // The small differences: whole multiples of the smallest, within rounding, on a grid; the
    // step is then their sum over their multiples (rounding averages out).
    const double slack = std::max(1.0, smallest / 100);
    double looked = 0;
    double on = 0;
    double sum = 0;
    double steps = 0;
    for_each_gap([&](double gap) {
        if (gap > kStepsLooked * smallest) return;
        ++looked;
        const double k = std::round(gap / smallest);
        if (std::fabs(gap - k * smallest) > slack * k) return;
        ++on;
        sum += gap;
        steps += k;
    });
    if (on < kOnGrid * looked) return 0;
    return sum / steps;
}

std::string resolve_time_scales(RunConfig& config, const SpikeTrains& trains) {
    const TimeBase& tb = trains.time_base();
    const double grid = spike_time_grid(trains);
    const double grid_seconds = grid * tb.tick_seconds();
    const bool coarse = grid_seconds > kFineGridSeconds;
    char step[64];
    std::snprintf(step, sizeof step, "%.4g ms", grid_seconds * 1000);
    const bool auto_baseline = config.baseline_ms == "auto";
    if (coarse) {
        if (config.mining_intervals_ms == "auto") {
            config.mining_intervals_ms = range_text(grid / 2, 1.5 * grid, tb) + "," + range_text(1.5 * grid, 2.5 * grid, tb);
        }
        if (config.sync_ms == "auto") config.sync_ms = ms_text(grid / 2, tb);
    } else {
        if (config.mining_intervals_ms == "auto") config.mining_intervals_ms = "0-5,5-10";
        if (config.sync_ms == "auto") config.sync_ms = mining::kDefaultSyncMs;
    }
    const std::vector<mining::Interval> delays = mining::parse_intervals(config.mining_intervals_ms, tb, "ms");
    const std::vector<mining::Interval> lags =
        config.intervals_ms.empty() ? std::vector<mining::Interval>{} : mining::parse_intervals(config.intervals_ms, tb, "ms");
    if (auto_baseline) {
        // From twice to four times the longest lag tested (20-40 ms for delays up to 10 ms);
        // on a coarse grid each bound half a step past a grid lag.
        Tick longest = config.sync_ms == "off" ? 0 : parse_ticks(config.sync_ms, "ms", tb);
        for (const auto* ranges : {&delays, &lags}) {
            for (const mining::Interval& range : *ranges) longest = std::max(longest, range.hi);
        }
        const auto h = static_cast<double>(longest);
        config.baseline_ms = coarse ? range_text((std::round(2 * h / grid) + 0.5) * grid, (std::round(4 * h / grid) + 0.5) * grid, tb)
                                    : range_text(2 * h, 4 * h, tb);
    }
    std::string note = grid > 0 ? std::string("spikes lie on a grid of ") + step + (coarse ? ", coarser than 1 ms: " : ": ")
                                : std::string("spikes lie on no grid coarser than a tick: ");
    note += "episodes' delays " + config.mining_intervals_ms + " ms, synchrony within " + config.sync_ms + " ms, chance from " +
            config.baseline_ms + " ms" + (coarse ? " (delays of one and two grid steps, synchrony within a step)" : "");
    note += resolve_windows(config, trains);
    check_on_grid(delays, "the episodes' delay", grid, tb);
    check_on_grid(lags, "the co-firing lag", grid, tb);
    check_on_grid(mining::parse_intervals(config.baseline_ms, tb, "ms"), "the baseline", grid, tb);
    return note;
}

}  // namespace spikeminer::pipeline
