// What the GPU clique search keeps per worker (a tile of lanes walking one subtree at a
// time), as offsets into one workspace slice: host and device code share it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spikeminer::graph::detail::gpu {

struct WorkerLayout {
    int max_candidates = 0;  // |P| of any subtree: the largest later-neighbour count (<= degeneracy)
    int words = 1;           // 32-bit words of a bitset over the candidates
    int out_words = 0;       // clique buffer (0: not listing)

    // The hot part, read at every node of the search: the candidates' rows, the
    // per-depth bitsets, excluded-array lengths and branches taken, and the clique counts
    // by size (32-bit, added to the totals before they could overflow). The kernel keeps
    // it in shared memory when that costs no occupancy, else at `hot` in the worker's
    // slice. Offsets in 32-bit words from its start.
    std::size_t levels = 0, xlen = 0, branch_at = 0, hist = 0, hot_stride = 0;
    // Offsets in 32-bit words from the start of a worker's slice (rows: the excluded
    // vertices' rows of IPX, indices from |P| on; the candidates' are in the hot part).
    std::size_t hot = 0, rows = 0, pids = 0, xids = 0, xx = 0, scratch = 0, clique = 0, header = 0, out = 0, stride = 0;

    __host__ __device__ int depth_levels() const { return max_candidates + 2; }
    __host__ __device__ int hist_size() const { return max_candidates + 3; }

    /// The fewest words for a bitset over the candidates.
    static int words_for(int max_candidates) { return (max_candidates + 31) / 32 < 1 ? 1 : (max_candidates + 31) / 32; }

    /// Lays the sections out one after the other, each starting on 16 bytes (rows read
    /// with vector loads); `words` >= words_for(max_candidates); `max_members` is |P| + |X|
    /// of any subtree (the largest degree); `full` (IPX) gives the excluded vertices rows too;
    /// `hot_in_slice` false leaves the hot part out of the slice (it is in shared memory).
    static WorkerLayout make(int max_candidates, int max_members, bool full, int out_words, int words, bool hot_in_slice) {
        WorkerLayout l;
        l.max_candidates = max_candidates;
        l.words = words;
        l.out_words = out_words;
        const auto members = static_cast<std::size_t>(max_members < 1 ? 1 : max_members);
        const auto candidates = static_cast<std::size_t>(max_candidates < 1 ? 1 : max_candidates);
        const auto levels = static_cast<std::size_t>(l.depth_levels());
        std::size_t at = 0;
        const auto take = [&at](std::size_t words) {
            const std::size_t start = at;
            at += (words + 3) / 4 * 4;
            return start;
        };
        (void)take(candidates * static_cast<std::size_t>(l.words));  // the candidates' rows, at 0
        l.levels = take(levels * 3 * static_cast<std::size_t>(l.words));
        l.xlen = take(levels);
        l.branch_at = take(levels);
        l.hist = take(static_cast<std::size_t>(l.hist_size()));
        l.hot_stride = at;
        at = 0;
        l.hot = take(hot_in_slice ? l.hot_stride : 0);
        l.rows = take(full ? members * static_cast<std::size_t>(l.words) : 0);
        l.pids = take(static_cast<std::size_t>(max_candidates < 1 ? 1 : max_candidates));
        l.xids = take(members);
        l.xx = take(full ? members : 0);
        l.scratch = take(members);
        l.clique = take(levels);
        l.header = take(3);
        l.out = take(static_cast<std::size_t>(out_words));
        l.stride = at;
        return l;
    }
};

}  // namespace spikeminer::graph::detail::gpu
