#pragma once
// The surrogate edge test (EdgeTest::surrogates): a window's edges counted again in
// surrogates of the spikes near the window, one pair at a time.

#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include <span>

namespace spikeminer::mining::detail {

/// The count of one test of a pair in `window`, as the co-firing counters count it, from
/// the two neurons' sorted spike times (those in [window.start - longest lag, window.end)
/// at least): synchrony (`interval` kSynchrony), pairs at most lags.sync apart either way
/// whose later spike is in the window; interval k, the spikes of `second` in the window
/// paired with each spike of `first` lo_k < t2 - t1 <= hi_k before them.
std::uint64_t count_test(std::span<const Tick> first, std::span<const Tick> second, TimeSpan window, int interval,
                         const CofiringLags& lags);

/// The longest lag a test of `lags` looks back: what a window's count needs before it.
Tick longest_lag(const CofiringLags& lags);

/// Keeps the edges of `window` that pass the surrogate edge test of `test` (see
/// EdgeTest::surrogates), with the surrogates' p-values; on `threads` threads (0: all).
/// `progress`'s Cancel stops the work.
void confirm_with_surrogates(const SurrogateTrains& surrogates, CofiringWindow& window, const CofiringLags& lags,
                             const EdgeTest& test, unsigned threads, Progress* progress);

}  // namespace spikeminer::mining::detail
