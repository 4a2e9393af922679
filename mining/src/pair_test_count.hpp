#pragma once
// One co-firing test of a pair counted from the two neurons' sorted spike times, as the
// co-firing counters count it: one source for the CPU's surrogate edge test and the GPU's.

#include "host_device.hpp"
#include "sorted_times.hpp"

#include "spikeminer/core/time_base.hpp"

#include <cstddef>
#include <cstdint>

namespace spikeminer::mining::detail {

/// Sum over the spikes t of `later` in [from, to) of the spikes of `earlier` in
/// [t + lo, t + hi): two cursors that move forward with t, so the work is linear in the
/// spikes of both near the stretch.
SPIKEMINER_HOST_DEVICE inline std::uint64_t lagged_pairs(const Tick* earlier, std::size_t n_earlier, const Tick* later,
                                                         std::size_t n_later, Tick from, Tick to, Tick lo, Tick hi) {
    std::uint64_t count = 0;
    std::size_t k = first_at(later, n_later, from);
    if (k == n_later || later[k] >= to) return 0;
    std::size_t begin = first_at(earlier, n_earlier, later[k] + lo);
    std::size_t end = begin;
    for (; k < n_later && later[k] < to; ++k) {
        const Tick t = later[k];
        while (begin < n_earlier && earlier[begin] < t + lo) ++begin;
        if (end < begin) end = begin;
        while (end < n_earlier && earlier[end] < t + hi) ++end;
        count += end - begin;
    }
    return count;
}

/// The lags one test of a pair counts (CofiringLags: the synchrony's `sync`, or the
/// interval (lo, hi]).
struct PairTestLags {
    bool synchrony = true;
    Tick sync = 0;
    Tick lo = 0;
    Tick hi = 0;
};

/// The count of one test of a pair in the window [from, to), from the two neurons' sorted
/// spike times (those in [from - longest lag, to) at least): synchrony, the pairs at most
/// `sync` apart either way whose later spike is in the window, each once; an interval, the
/// spikes of `second` in the window paired with each spike of `first` lo < t2 - t1 <= hi
/// before them.
SPIKEMINER_HOST_DEVICE inline std::uint64_t count_pair_test(const Tick* first, std::size_t n_first, const Tick* second,
                                                            std::size_t n_second, Tick from, Tick to, const PairTestLags& lags) {
    if (lags.synchrony) {
        // Each pair once, by its later spike: second's spikes with first's at or before
        // them, then first's spikes with second's strictly before them.
        return lagged_pairs(first, n_first, second, n_second, from, to, -lags.sync, 1) +
               lagged_pairs(second, n_second, first, n_first, from, to, -lags.sync, 0);
    }
    return lagged_pairs(first, n_first, second, n_second, from, to, -lags.hi, -lags.lo);
}

}  // namespace spikeminer::mining::detail
