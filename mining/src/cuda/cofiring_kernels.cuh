// Kernels of the GPU co-firing counter (cofiring_counter.cu).
#pragma once

#include "../cofiring_stats.hpp"

#include <cstdint>

namespace spikeminer::mining::detail {

/// What count_piece_kernel reads and writes.
struct PieceArgs {
    const Tick* times;              ///< the stream, sorted
    const NeuronId* neurons;
    std::uint64_t spikes;           ///< stream length
    const std::uint32_t* positions; ///< stream indices grouped by neuron
    const std::uint64_t* offsets;   ///< neurons + 1
    const std::uint32_t* first;     ///< per neuron: its piece's ends are positions[offsets[n] + first[n] .. + last[n])
    const std::uint32_t* last;
    std::uint32_t per_block;        ///< ends per block (blockIdx.y splits a neuron's ends)
    std::uint32_t* counts;          ///< (end neuron, start neuron, slot), row-major
    std::uint32_t neuron_count;
    int slots;
    bool exclusive;                 ///< one block per row: it writes the whole row, zeros too
    LookBacks look_backs;
    Tick slot_lo[kMaxSlots];
};

/// The first index of times[0, n) at or after t, found by the whole warp (every lane gets
/// it): 32 probes a round narrow the range 32-fold, so a search of 10^8 spikes takes about
/// 6 dependent loads (a binary search, 27).
__device__ inline std::uint64_t warp_first_at_or_after(const Tick* times, std::uint64_t n, Tick t, unsigned lane) {
    std::uint64_t lo = 0;  // the answer lies in [lo, hi]
    std::uint64_t hi = n;
    while (hi - lo > 32) {
        const std::uint64_t step = (hi - lo + 31) / 32;
        const std::uint64_t probe = lo + lane * step;
        const unsigned before = __ballot_sync(0xFFFFFFFFu, probe < hi && times[probe] < t);
        const auto k = static_cast<std::uint64_t>(__popc(before));  // the probes before t are a prefix of the lanes
        hi = min(hi, lo + k * step);
        lo = k == 0 ? lo : lo + (k - 1) * step + 1;
    }
    const std::uint64_t probe = lo + lane;
    return lo + static_cast<std::uint64_t>(__popc(__ballot_sync(0xFFFFFFFFu, probe < hi && times[probe] < t)));
}

/// Counts the occurrences ending at a piece's spikes. One block per (end neuron, share of
/// its ends), one warp per end spike; the lanes stride over the spikes within the counted
/// lags (each lane's lags decrease, so its slot only steps down). With kSharedRow the end
/// neuron's row of counters sits in shared memory and is added to `counts` at the end;
/// without it (rows too long for shared memory) the lanes add to `counts` directly.
template <bool kSharedRow>
__global__ void count_piece_kernel(PieceArgs args) {
    extern __shared__ std::uint32_t row[];
    const NeuronId end = blockIdx.x;
    const std::uint64_t row_cells = static_cast<std::uint64_t>(args.neuron_count) * static_cast<std::uint64_t>(args.slots);
    std::uint32_t* target = kSharedRow ? row : args.counts + static_cast<std::uint64_t>(end) * row_cells;
    if (kSharedRow) {
        for (std::uint64_t c = threadIdx.x; c < row_cells; c += blockDim.x) row[c] = 0;
        __syncthreads();
    }
    const std::uint32_t begin = args.first[end] + blockIdx.y * args.per_block;
    const std::uint32_t stop = min(args.last[end], begin + args.per_block);
    const unsigned lane = threadIdx.x % 32;
    const unsigned warps = blockDim.x / 32;
    for (std::uint32_t e = begin + threadIdx.x / 32; e < stop; e += warps) {
        const std::uint32_t i = args.positions[args.offsets[end] + e];
        const Tick t = args.times[i];
        for (int r = 0; r < args.look_backs.count; ++r) {
            const LookBack run = args.look_backs.runs[r];
            const std::uint64_t from = warp_first_at_or_after(args.times, i + 1, t - run.hi, lane);
            const std::uint64_t to = min(static_cast<std::uint64_t>(i), warp_first_at_or_after(args.times, args.spikes, t - run.lo, lane));
            int s = run.last_slot;
            for (std::uint64_t j = from + lane; j < to; j += 32) {
                const NeuronId start = args.neurons[j];
                if (start == end) continue;
                const Tick lag = t - args.times[j];
                while (lag <= args.slot_lo[s]) --s;
                atomicAdd(target + static_cast<std::uint64_t>(start) * static_cast<std::uint64_t>(args.slots) + static_cast<std::uint64_t>(s), 1u);
            }
        }
    }
    if (kSharedRow) {
        __syncthreads();
        std::uint32_t* out = args.counts + static_cast<std::uint64_t>(end) * row_cells;
        for (std::uint64_t c = threadIdx.x; c < row_cells; c += blockDim.x) {
            if (args.exclusive) {
                out[c] = row[c];
            } else if (row[c] != 0) {
                atomicAdd(out + c, row[c]);
            }
        }
    }
}

/// into[c] += from[c] (or -= when `subtract`), one thread per cell: a bin's counts into or
/// out of the window, a window's or a bin's into the whole recording's share.
template <typename T>
__global__ void add_counts_kernel(unsigned long long* into, const T* from, std::uint64_t cells, bool subtract) {
    const std::uint64_t c = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (c >= cells) return;
    into[c] = subtract ? into[c] - from[c] : into[c] + from[c];
}

/// How many candidates a window has, how many of those are kept, and the level kept from.
struct WindowTally {
    unsigned long long found;
    unsigned long long kept;
    int level;
};

/// The candidate tests of every pair x < y, one thread per ordered (x, y) of which those
/// with x < y work; appended at `found` (as many as fit in `capacity`; tally->found says
/// how many there were), and counted by level in `at_level` (through the block's own
/// counts: many candidates, few levels).
__global__ inline void candidates_kernel(CandidateRule rule, const unsigned long long* window, CofiringCandidate* found,
                                         WindowTally* tally, unsigned long long* at_level, std::uint64_t capacity) {
    __shared__ unsigned long long block_levels[kLevels];
    for (int j = static_cast<int>(threadIdx.x); j < kLevels; j += static_cast<int>(blockDim.x)) block_levels[j] = 0;
    __syncthreads();
    const std::uint64_t n = rule.neurons;
    const std::uint64_t p = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const auto x = static_cast<std::uint32_t>(p / n);
    const auto y = static_cast<std::uint32_t>(p % n);
    if (p < n * n && x < y && rule.window_spikes[x] != 0 && rule.window_spikes[y] != 0) {
        const auto slots = static_cast<std::uint64_t>(rule.layout.slots);
        const unsigned long long* yx = window + (static_cast<std::uint64_t>(y) * n + x) * slots;
        const unsigned long long* xy = window + (static_cast<std::uint64_t>(x) * n + y) * slots;
        if (may_hold_candidate(rule, yx, xy)) {  // most threads of a warp leave here together
            for_each_candidate(rule, x, y, yx, xy, rule.window_spikes[x], rule.window_spikes[y], [&](const CofiringCandidate& c) {
                const unsigned long long at = atomicAdd(&tally->found, 1ull);
                if (at < capacity) found[at] = c;
                atomicAdd(&block_levels[c.level], 1ull);
            });
        }
    }
    __syncthreads();
    for (int j = static_cast<int>(threadIdx.x); j < kLevels; j += static_cast<int>(blockDim.x)) {
        if (block_levels[j] != 0) atomicAdd(&at_level[j], block_levels[j]);
    }
}

/// One thread: the deepest needed level from the counts by level.
__global__ inline void needed_level_kernel(CandidateRule rule, const unsigned long long* at_level, WindowTally* tally) {
    tally->level = deepest_needed_level(at_level, rule);
}

/// The candidates at the needed level or deeper, appended at `kept`.
__global__ inline void keep_needed_kernel(const CofiringCandidate* found, WindowTally* tally, CofiringCandidate* kept,
                                          std::uint64_t capacity) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= min(static_cast<std::uint64_t>(tally->found), capacity) || found[i].level < tally->level) return;
    kept[atomicAdd(&tally->kept, 1ull)] = found[i];
}

}  // namespace spikeminer::mining::detail
