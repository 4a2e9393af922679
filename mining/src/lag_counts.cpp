#include "lag_counts.hpp"

#include "end_lists.hpp"

namespace spikeminer::mining::detail {
namespace {

// The first index of `spikes` whose time is after `value`, its cursor moving forward
// with the (sorted) values it is asked for.
struct Cursor {
    std::span<const Tick> spikes;
    std::size_t at = 0;
    std::size_t after(Tick value) {
        at = first_after(spikes.data(), at, spikes.size(), value);
        return at;
    }
};

}  // namespace

LagCounts count_lags(std::span<const Tick> ends, std::span<const Tick> spikes, const Interval& gap, const Interval& baseline) {
    LagCounts counts;
    // Spikes in (t + lo, t + hi]; in [t - hi, t - lo), that is (t - hi - 1, t - lo - 1] on
    // whole ticks; in (t + blo, t + bhi]; in [t - bhi, t - blo).
    Cursor lo{spikes}, hi{spikes}, back_lo{spikes}, back_hi{spikes};
    Cursor after_lo{spikes}, after_hi{spikes}, before_lo{spikes}, before_hi{spikes};
    for (const Tick t : ends) {
        counts.tested += hi.after(t + gap.hi) - lo.after(t + gap.lo);
        counts.reversed += back_lo.after(t - gap.lo - 1) - back_hi.after(t - gap.hi - 1);
        counts.baseline += after_hi.after(t + baseline.hi) - after_lo.after(t + baseline.lo);
        counts.baseline += before_lo.after(t - baseline.lo - 1) - before_hi.after(t - baseline.hi - 1);
    }
    return counts;
}

}  // namespace spikeminer::mining::detail
