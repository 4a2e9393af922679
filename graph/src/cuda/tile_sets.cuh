// Set operations for one cooperative tile of G lanes (a sub-warp group, Almasri et al.'s
// sub-warp partitioning): bitsets of W 32-bit words shared out word by word over the
// lanes, and in-place partitions of vertex arrays. Every function is called by all lanes
// of the tile and returns the same value to each.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

namespace spikeminer::graph::detail::gpu {

namespace cg = cooperative_groups;
using Word = std::uint32_t;
template <unsigned G>
using Tile = cg::thread_block_tile<G, cg::thread_block>;

/// |a| for a bitset of W words.
template <unsigned G>
__device__ int count_bits(const Tile<G>& tile, const Word* a, int W) {
    int c = 0;
    for (int w = static_cast<int>(tile.thread_rank()); w < W; w += static_cast<int>(G)) c += __popc(a[w]);
    return cg::reduce(tile, c, cg::plus<int>());
}

/// Whether a bitset of W words has any bit set.
template <unsigned G>
__device__ bool any_bit(const Tile<G>& tile, const Word* a, int W) {
    bool any = false;
    for (int w = static_cast<int>(tile.thread_rank()); w < W; w += static_cast<int>(G)) any = any || a[w] != 0;
    return tile.any(any);
}

/// The lowest set bit of a bitset of W words, or -1.
template <unsigned G>
__device__ int lowest_bit(const Tile<G>& tile, const Word* a, int W) {
    for (int base = 0; base < W; base += static_cast<int>(G)) {
        const int w = base + static_cast<int>(tile.thread_rank());
        const Word bits = w < W ? a[w] : 0;
        const unsigned lanes = tile.ballot(bits != 0);
        if (lanes != 0) {
            const int lane = __ffs(lanes) - 1;
            return (base + lane) * 32 + __ffs(tile.shfl(bits, lane)) - 1;
        }
    }
    return -1;
}

/// |a ∩ b| by one lane (the lanes each evaluate their own b).
__device__ inline int count_common(const Word* a, const Word* b, int W) {
    int c = 0;
    for (int w = 0; w < W; ++w) c += __popc(a[w] & b[w]);
    return c;
}

__device__ inline bool has_bit(const Word* a, int j) { return (a[j >> 5] >> (j & 31)) & 1U; }

/// Whether pred(i) holds for some i < n (stops at the first group of G that has one).
template <unsigned G, typename Pred>
__device__ bool any_of(const Tile<G>& tile, int n, Pred pred) {
    for (int base = 0; base < n; base += static_cast<int>(G)) {
        const int i = base + static_cast<int>(tile.thread_rank());
        if (tile.any(i < n && pred(i))) return true;
    }
    return false;
}

/// Appends, in index order, f(j) for every j < n with keep(j) to out[0..); returns how many.
template <unsigned G, typename Keep, typename Value, typename Out>
__device__ int compact(const Tile<G>& tile, int n, Keep keep, Value f, Out* out) {
    int written = 0;
    const unsigned below = (1U << tile.thread_rank()) - 1;
    for (int base = 0; base < n; base += static_cast<int>(G)) {
        const int j = base + static_cast<int>(tile.thread_rank());
        const bool k = j < n && keep(j);
        const unsigned lanes = tile.ballot(k);
        if (k) out[written + __popc(lanes & below)] = f(j);
        written += __popc(lanes);
    }
    return written;
}

/// Reorders a[0..n) so that the entries with keep(entry) come first; returns how many
/// there are. The set a[0..n) is unchanged (compact X: one array serves every level).
template <unsigned G, typename T, typename Keep>
__device__ int partition(const Tile<G>& tile, T* a, int n, T* scratch, Keep keep) {
    int kept = 0;
    int dropped = 0;
    const unsigned below = (1U << tile.thread_rank()) - 1;
    for (int base = 0; base < n; base += static_cast<int>(G)) {
        const int i = base + static_cast<int>(tile.thread_rank());
        const bool valid = i < n;
        const T entry = valid ? a[i] : T{};
        const bool k = valid && keep(entry);
        const unsigned keep_lanes = tile.ballot(k);
        const unsigned drop_lanes = tile.ballot(valid && !k);
        if (k) scratch[kept + __popc(keep_lanes & below)] = entry;
        if (valid && !k) scratch[n - 1 - (dropped + __popc(drop_lanes & below))] = entry;
        kept += __popc(keep_lanes);
        dropped += __popc(drop_lanes);
    }
    tile.sync();
    if (kept != 0 && kept != n) {  // all kept: scratch is a's order; none kept: any order will do
        for (int i = static_cast<int>(tile.thread_rank()); i < n; i += static_cast<int>(G)) a[i] = scratch[i];
    }
    tile.sync();
    return kept;
}

}  // namespace spikeminer::graph::detail::gpu
