#include "lag_counts.hpp"

#include "end_lists.hpp"

namespace spikeminer::mining::detail {
namespace {

// Spikes for each end above which a cursor gallops: below, it steps spike by spike (a
// few steps an end, cheaper than a gallop's search and its branches).
constexpr std::size_t kGallopAbove = 8;

// The first index of `spikes` whose time is after `value`, its cursor moving forward
// with the (sorted) values it is asked for.
struct Cursor {
    std::span<const Tick> spikes;
    bool gallop = true;
    std::size_t at = 0;
    std::size_t after(Tick value) {
        if (gallop) {
            at = first_after(spikes.data(), at, spikes.size(), value);
        } else {
            while (at < spikes.size() && spikes[at] <= value) ++at;
        }
        return at;
    }
};

}  // namespace

LagCounts count_lags(std::span<const Tick> ends, std::span<const Tick> spikes, const Interval& gap, const Interval& baseline) {
    LagCounts counts;
    // Spikes in (t + lo, t + hi]; in [t - hi, t - lo), that is (t - hi - 1, t - lo - 1] on
    // whole ticks; in (t + blo, t + bhi]; in [t - bhi, t - blo).
    const bool gallop = spikes.size() > kGallopAbove * ends.size();
    Cursor lo{spikes, gallop}, hi{spikes, gallop}, back_lo{spikes, gallop}, back_hi{spikes, gallop};
    Cursor after_lo{spikes, gallop}, after_hi{spikes, gallop}, before_lo{spikes, gallop}, before_hi{spikes, gallop};
    for (const Tick t : ends) {
        counts.tested += hi.after(t + gap.hi) - lo.after(t + gap.lo);
        counts.reversed += back_lo.after(t - gap.lo - 1) - back_hi.after(t - gap.hi - 1);
        counts.baseline += after_hi.after(t + baseline.hi) - after_lo.after(t + baseline.lo);
        counts.baseline += before_lo.after(t - baseline.lo - 1) - before_hi.after(t - baseline.hi - 1);
    }
    return counts;
}

}  // namespace spikeminer::mining::detail
