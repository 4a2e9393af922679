#pragma once
// Kernels of the GPU episode counters. A partial occurrence is a 64-bit key
// (end << 32 | index): `end` numbers the end event across the batch (the global end
// index g), `index` is the position, in its neuron's spike list, of the event the search
// has reached at the current node. Keys of one search level are sorted, so the partials
// of one end are adjacent and ascending in time.

#include "spikeminer/core/time_base.hpp"

#include <cstdint>

namespace spikeminer::mining::detail {

/// The batch's episodes of one length, as the kernels read them.
struct EpisodeBatchView {
    const std::int64_t* times;       ///< all spike times, neuron by neuron
    const std::uint64_t* offsets;    ///< neuron n's spikes are times[offsets[n] .. offsets[n+1])
    const std::uint32_t* neurons;    ///< episode e's node k is neurons[e * length + k]
    const std::int64_t* lo;          ///< gap k of episode e: (lo[e * (length-1) + k], hi[...]]
    const std::int64_t* hi;
    const std::uint64_t* end_first;  ///< episode e owns global ends [end_first[e], end_first[e+1])
    std::uint32_t episodes;
    std::uint32_t length;
};

__device__ inline std::uint32_t key_end(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 32); }
__device__ inline std::uint32_t key_index(std::uint64_t key) { return static_cast<std::uint32_t>(key); }
__device__ inline std::uint64_t make_key(std::uint64_t end, std::uint64_t index) { return end << 32 | index; }

/// The episode that owns global end g (binary search over end_first).
__device__ inline std::uint32_t episode_of(const EpisodeBatchView& batch, std::uint32_t g) {
    std::uint32_t lo = 0;
    std::uint32_t hi = batch.episodes;  // end_first[lo] <= g < end_first[hi]
    while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (batch.end_first[mid] <= g) lo = mid; else hi = mid;
    }
    return lo;
}

/// First position in times[begin, end) whose value is >= target.
__device__ inline std::uint64_t lower_bound(const std::int64_t* times, std::uint64_t begin, std::uint64_t end,
                                            std::int64_t target) {
    while (begin < end) {
        const std::uint64_t mid = begin + (end - begin) / 2;
        if (times[mid] < target) begin = mid + 1; else end = mid;
    }
    return begin;
}

/// The events of node k preceding the partial `key` (at node k+1) by a gap in (lo, hi]:
/// indices [a, b) of node k's spike list, with times in [t - hi, t - lo).
struct Window {
    std::uint32_t a;
    std::uint32_t b;
};

__device__ inline Window window_of(const EpisodeBatchView& batch, std::uint64_t key, std::uint32_t k) {
    const std::uint32_t e = episode_of(batch, key_end(key));
    const std::uint32_t later = batch.neurons[e * batch.length + k + 1];
    const std::uint32_t earlier = batch.neurons[e * batch.length + k];
    const std::int64_t t = batch.times[batch.offsets[later] + key_index(key)];
    const std::size_t gap = static_cast<std::size_t>(e) * (batch.length - 1) + k;
    const std::uint64_t first = batch.offsets[earlier];
    const std::uint64_t last = batch.offsets[earlier + 1];
    const std::uint64_t a = lower_bound(batch.times, first, last, t - batch.hi[gap]);
    const std::uint64_t b = lower_bound(batch.times, a, last, t - batch.lo[gap]);
    return Window{static_cast<std::uint32_t>(a - first), static_cast<std::uint32_t>(b - first)};
}

/// The part of partial p's window not already covered by partial p-1 of the same end:
/// windows of one end have non-decreasing bounds, so the union of their index ranges,
/// sorted and without repeats, is the concatenation of [max(a_p, b_{p-1}), b_p).
__device__ inline Window new_part(const EpisodeBatchView& batch, const std::uint64_t* keys, std::uint64_t p,
                                  std::uint32_t k) {
    Window w = window_of(batch, keys[p], k);
    if (p > 0 && key_end(keys[p - 1]) == key_end(keys[p])) {
        const Window before = window_of(batch, keys[p - 1], k);
        w.a = max(w.a, before.b);
    }
    if (w.a > w.b) w.a = w.b;
    return w;
}

/// CountScanWrite, count pass. One thread per partial.
__global__ void csw_count_kernel(EpisodeBatchView batch, const std::uint64_t* keys, std::uint64_t n, std::uint32_t k,
                                 std::uint32_t* counts) {
    const std::uint64_t p = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (p >= n) return;
    const Window w = new_part(batch, keys, p, k);
    counts[p] = w.b - w.a;
}

/// CountScanWrite, write pass: each partial writes its new predecessors at its scanned
/// offset, so the next level comes out sorted. One thread per partial.
__global__ void csw_write_kernel(EpisodeBatchView batch, const std::uint64_t* keys, std::uint64_t n, std::uint32_t k,
                                 const std::uint64_t* offsets, std::uint64_t* out) {
    const std::uint64_t p = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (p >= n) return;
    const Window w = new_part(batch, keys, p, k);
    const std::uint64_t end = key_end(keys[p]);
    std::uint64_t o = offsets[p];
    for (std::uint32_t j = w.a; j < w.b; ++j) out[o++] = make_key(end, j);
}

/// AtomicCompact: each partial writes its whole window (repeats included; a sort and
/// unique follow) at an offset taken from a block counter in shared memory, the block's
/// total reserved with one global atomic. Writes past `capacity` are dropped and flagged.
/// One thread per partial.
__global__ void atomic_compact_kernel(EpisodeBatchView batch, const std::uint64_t* keys, std::uint64_t n,
                                      std::uint32_t k, std::uint64_t* out, unsigned long long* cursor,
                                      std::uint64_t capacity, int* overflow) {
    __shared__ unsigned int block_count;
    __shared__ unsigned long long block_base;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    const std::uint64_t p = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    Window w{0, 0};
    if (p < n) w = window_of(batch, keys[p], k);
    const unsigned int local = atomicAdd(&block_count, w.b - w.a);
    __syncthreads();
    if (threadIdx.x == 0) block_base = atomicAdd(cursor, static_cast<unsigned long long>(block_count));
    __syncthreads();
    if (w.b == w.a) return;
    const std::uint64_t base = block_base + local;
    if (base + (w.b - w.a) > capacity) {
        *overflow = 1;
        return;
    }
    const std::uint64_t end = key_end(keys[p]);
    for (std::uint32_t j = w.a; j < w.b; ++j) out[base + (j - w.a)] = make_key(end, j);
}

/// Seeds the search: the partials of ends [g0, g0 + n) at the last node. One thread per end.
__global__ void seed_kernel(EpisodeBatchView batch, std::uint64_t g0, std::uint64_t n, std::uint64_t* keys) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const auto g = static_cast<std::uint32_t>(g0 + i);
    const std::uint32_t e = episode_of(batch, g);
    keys[i] = make_key(g, g - batch.end_first[e]);
}

/// After the first node: the last partial of each end holds its latest start. One thread
/// per partial.
__global__ void latest_start_kernel(EpisodeBatchView batch, const std::uint64_t* keys, std::uint64_t n,
                                    std::int64_t* starts) {
    const std::uint64_t p = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (p >= n) return;
    const std::uint32_t g = key_end(keys[p]);
    if (p + 1 < n && key_end(keys[p + 1]) == g) return;
    const std::uint32_t e = episode_of(batch, g);
    const std::uint32_t first = batch.neurons[e * batch.length];
    starts[g] = batch.times[batch.offsets[first] + key_index(keys[p])];
}

// Greedy interval scheduling in parallel, for batches of few long episodes. With M[g] the running maximum of the latest
// starts over an episode's ends (in end order), the greedy takes the first end with a
// start and then, from a taken end g, the first later end g' with M[g'] > end(g):
// replacing a start by the running maximum changes no decision, because an end whose
// start is below an earlier one's is always refused, and M is non-decreasing, so "the
// first later end" is a binary search. The count is the length of that chain from the
// first end with a start, found by pointer jumping (list ranking) in log2(ends) rounds.

/// Greedy scheduling walked end by end. One thread per episode: the better mapping when
/// a batch holds many episodes of moderate length (a mining level).
__global__ void greedy_walk_kernel(EpisodeBatchView batch, const std::int64_t* starts, std::int64_t no_start,
                                   unsigned long long* counts) {
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= batch.episodes) return;
    const std::uint32_t last = batch.neurons[e * batch.length + batch.length - 1];
    const std::int64_t* end_times = batch.times + batch.offsets[last];
    unsigned long long count = 0;
    bool any = false;
    std::int64_t last_end = 0;
    for (std::uint64_t g = batch.end_first[e]; g < batch.end_first[e + 1]; ++g) {
        const std::int64_t start = starts[g];
        if (start == no_start || (any && start <= last_end)) continue;
        ++count;
        any = true;
        last_end = end_times[g - batch.end_first[e]];
    }
    counts[e] = count;
}

/// The episode of every end. One thread per end.
__global__ void episode_of_end_kernel(EpisodeBatchView batch, std::uint64_t ends, std::uint32_t* episode) {
    const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (g < ends) episode[g] = episode_of(batch, static_cast<std::uint32_t>(g));
}

/// The maximum, for the running maximum of latest starts.
struct MaxStart {
    __device__ std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a > b ? a : b; }
};

/// The end the greedy takes after end g (or `ends` when none), and a chain length of 1.
/// One thread per end.
__global__ void next_end_kernel(EpisodeBatchView batch, const std::uint32_t* episode, const std::int64_t* running,
                                std::uint64_t ends, std::uint32_t* next, std::uint32_t* rank) {
    const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (g >= ends) return;
    const std::uint32_t e = episode[g];
    const std::uint32_t last = batch.neurons[e * batch.length + batch.length - 1];
    const std::int64_t end_time = batch.times[batch.offsets[last] + (g - batch.end_first[e])];
    std::uint64_t lo = g + 1;
    std::uint64_t hi = batch.end_first[e + 1];
    while (lo < hi) {  // first position in (g, segment end) whose running start exceeds end_time
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (running[mid] <= end_time) lo = mid + 1; else hi = mid;
    }
    next[g] = static_cast<std::uint32_t>(lo < batch.end_first[e + 1] ? lo : ends);
    rank[g] = 1;
}

/// One round of pointer jumping: rank becomes the chain length over twice the distance.
/// One thread per end.
__global__ void jump_kernel(const std::uint32_t* next, const std::uint32_t* rank, std::uint64_t ends,
                            std::uint32_t* next_out, std::uint32_t* rank_out) {
    const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (g >= ends) return;
    const std::uint32_t n = next[g];
    if (n == ends) {
        next_out[g] = n;
        rank_out[g] = rank[g];
    } else {
        next_out[g] = next[n];
        rank_out[g] = rank[g] + rank[n];
    }
}

/// Each episode's count: the chain length from its first end that has a start.
/// One thread per episode.
__global__ void chain_count_kernel(EpisodeBatchView batch, const std::int64_t* running, const std::uint32_t* rank,
                                   std::int64_t no_start, unsigned long long* counts) {
    const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= batch.episodes) return;
    std::uint64_t lo = batch.end_first[e];
    std::uint64_t hi = batch.end_first[e + 1];
    while (lo < hi) {  // the running maximum leaves no_start only at the first end with a start
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (running[mid] == no_start) lo = mid + 1; else hi = mid;
    }
    counts[e] = lo < batch.end_first[e + 1] ? rank[lo] : 0;
}

}  // namespace spikeminer::mining::detail

namespace spikeminer::mining::detail {

/// Sets values[0, n) to `value`. One thread per element.
__global__ void fill_kernel(std::int64_t* values, std::uint64_t n, std::int64_t value) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i < n) values[i] = value;
}

}  // namespace spikeminer::mining::detail
