#pragma once
// The test against chance's lag counts on the device: count_lags (lag_counts.hpp) for many
// candidates at once. Each thread takes a run of consecutive ends of one candidate and
// walks galloping cursors over the neuron's spikes, as the CPU does over all the ends, and
// adds its counts to the candidate's; the sums are the CPU's exactly.

#include "../end_lists.hpp"

#include <cstdint>

namespace spikeminer::mining::detail {

/// One candidate as the kernel reads it: device pointers to the ends and to the neuron's
/// spikes, the delay (lo, hi], and the index of its first run of ends.
struct DeviceLagQuery {
    const Tick* ends;
    std::uint64_t ends_length;
    const Tick* spikes;
    std::uint64_t spikes_length;
    Tick lo;
    Tick hi;
    std::uint64_t first_run;
};

/// Ends per thread: long enough that the cursors gallop rather than search.
inline constexpr std::uint32_t kLagRun = 256;

/// counts[3 q + 0, 1, 2] += the tested, reversed and baseline pairs of query q; `runs` is
/// the number of runs of all queries (one thread each).
__global__ inline void lag_counts_kernel(const DeviceLagQuery* queries, std::uint32_t count, std::uint64_t runs, Tick baseline_lo,
                                         Tick baseline_hi, unsigned long long* counts) {
    const std::uint64_t run = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (run >= runs) return;
    std::uint32_t lo = 0;
    std::uint32_t hi = count;  // queries[lo].first_run <= run < queries[hi].first_run
    while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (queries[mid].first_run <= run) lo = mid; else hi = mid;
    }
    const DeviceLagQuery q = queries[lo];
    const std::uint64_t first = (run - q.first_run) * kLagRun;
    const std::uint64_t last = first + kLagRun < q.ends_length ? first + kLagRun : q.ends_length;
    // The cursors of count_lags: spikes in (t + lo, t + hi], in [t - hi, t - lo), in
    // (t + blo, t + bhi] and in [t - bhi, t - blo).
    std::uint64_t cursor[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const auto after = [&](int k, Tick value) {
        cursor[k] = first_after(q.spikes, cursor[k], q.spikes_length, value);
        return cursor[k];
    };
    unsigned long long tested = 0;
    unsigned long long reversed = 0;
    unsigned long long baseline = 0;
    for (std::uint64_t i = first; i < last; ++i) {
        const Tick t = q.ends[i];
        tested += after(0, t + q.hi) - after(1, t + q.lo);
        reversed += after(2, t - q.lo - 1) - after(3, t - q.hi - 1);
        baseline += after(4, t + baseline_hi) - after(5, t + baseline_lo);
        baseline += after(6, t - baseline_lo - 1) - after(7, t - baseline_hi - 1);
    }
    if (tested != 0) atomicAdd(counts + 3 * lo, tested);
    if (reversed != 0) atomicAdd(counts + 3 * lo + 1, reversed);
    if (baseline != 0) atomicAdd(counts + 3 * lo + 2, baseline);
}

}  // namespace spikeminer::mining::detail
