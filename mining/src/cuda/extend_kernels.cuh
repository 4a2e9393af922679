#pragma once
// Kernels of the GPU list store (end_lists.hpp). A group of prefixes is extended at once:
// each thread takes a chunk of one prefix's entries and, per entry j, reads the stream's
// events in (t_j + min lo, t_j + max hi]; an event of neuron C at time t extends j by
// every extension (C, (lo, hi]) of the prefix with t_j + lo < t <= min(t_j + hi, t_j+1 + lo).
// Output cells are (extension, chunk), laid out extension by extension, so that an
// exclusive scan over the cells' counts gives each extension's list in end order.

#include "../end_lists.hpp"

#include <cstdint>

namespace spikeminer::mining::detail {

/// One prefix of a group: its list, its chunks, its cells, its extensions.
struct PrefixInfo {
    const Tick* ends;
    const Tick* starts;
    std::uint64_t length;       ///< entries
    std::uint64_t chunk_first;  ///< the group's first chunk of this prefix
    std::uint64_t cell_first;   ///< cell of (its first extension, chunk 0)
    std::uint32_t chunks;
    std::uint32_t extension_first;  ///< group-local index of its first extension
    Tick min_lo;                ///< over its extensions
    Tick max_hi;
};

/// A group as the kernels read it. Extensions are sorted by (prefix, neuron); those of
/// prefix p with neuron C are [by_neuron[p * (neurons + 1) + C], ... + C + 1]).
struct GroupView {
    const PrefixInfo* prefixes;
    std::uint32_t num_prefixes;
    const std::uint32_t* by_neuron;
    std::uint32_t neurons;
    const Tick* extension_lo;
    const Tick* extension_hi;
    const Tick* stream_times;      ///< every spike, in time order
    const NeuronId* stream_neurons;
    std::uint64_t stream_length;
    std::uint64_t chunks;           ///< over all prefixes of the group
    std::uint32_t entries_per_chunk;
};

/// The prefix that owns chunk c (binary search over chunk_first).
__device__ inline std::uint32_t prefix_of_chunk(const GroupView& g, std::uint64_t c) {
    std::uint32_t lo = 0;
    std::uint32_t hi = g.num_prefixes;  // chunk_first[lo] <= c < chunk_first[hi]
    while (hi - lo > 1) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (g.prefixes[mid].chunk_first <= c) lo = mid; else hi = mid;
    }
    return lo;
}

/// Count pass (kWrite false: counts[cell] += 1 per entry) or write pass (kWrite true: the
/// entry goes to cursor[cell]++). Each cell belongs to one thread. One thread per chunk.
template <bool kWrite>
__global__ void extend_chunks_kernel(GroupView g, std::uint32_t* counts, std::uint64_t* cursor, Tick* out_ends,
                                     Tick* out_starts) {
    const std::uint64_t c = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (c >= g.chunks) return;
    const std::uint32_t p = prefix_of_chunk(g, c);
    const PrefixInfo prefix = g.prefixes[p];
    const std::uint64_t h = c - prefix.chunk_first;
    const std::uint64_t first = h * g.entries_per_chunk;
    const std::uint64_t last = first + g.entries_per_chunk < prefix.length ? first + g.entries_per_chunk : prefix.length;
    const std::uint32_t* table = g.by_neuron + static_cast<std::uint64_t>(p) * (g.neurons + 1);
    std::size_t q0 = 0;
    for (std::uint64_t j = first; j < last; ++j) {
        const Tick t = prefix.ends[j];
        const Tick start = prefix.starts[j];
        const bool has_next = j + 1 < prefix.length;
        const Tick next = has_next ? prefix.ends[j + 1] : 0;
        q0 = first_after(g.stream_times, q0, g.stream_length, t + prefix.min_lo);
        for (std::size_t q = q0; q < g.stream_length; ++q) {
            const Tick tq = g.stream_times[q];
            if (tq > t + prefix.max_hi) break;
            const NeuronId neuron = g.stream_neurons[q];
            for (std::uint32_t x = table[neuron]; x < table[neuron + 1]; ++x) {
                if (!takes_from(tq, t, has_next, next, g.extension_lo[x], g.extension_hi[x])) continue;
                const std::uint64_t cell = prefix.cell_first + (x - prefix.extension_first) * std::uint64_t{prefix.chunks} + h;
                if constexpr (kWrite) {
                    const std::uint64_t o = cursor[cell]++;
                    out_ends[o] = tq;
                    out_starts[o] = start;
                } else {
                    ++counts[cell];
                }
            }
        }
    }
}

/// Each extension's list in the scanned cells: [begin[x], end[x]). One thread per extension.
__global__ void extension_bounds_kernel(GroupView g, const std::uint32_t* extension_prefix, std::uint32_t extensions,
                                        const std::uint64_t* offsets, std::uint64_t* begin, std::uint64_t* end) {
    const std::uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= extensions) return;
    const PrefixInfo& prefix = g.prefixes[extension_prefix[x]];
    const std::uint64_t cell = prefix.cell_first + (x - prefix.extension_first) * std::uint64_t{prefix.chunks};
    begin[x] = offsets[cell];
    end[x] = offsets[cell + prefix.chunks];
}

/// Each list's greedy count (GreedyCount), one warp per list: the lanes load 32
/// entries at once and take them in order by ballots (the first lane after the last one
/// taken whose start is after the last end taken), so that a list of 100,000 entries
/// costs a ballot per entry taken instead of a dependent load per entry.
__global__ void greedy_lists_kernel(const Tick* ends, const Tick* starts, const std::uint64_t* begin,
                                    const std::uint64_t* end, std::uint32_t lists, std::uint64_t* counts) {
    const std::uint64_t list = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    if (list >= lists) return;  // whole warps: blockDim.x is a multiple of 32
    const int lane = static_cast<int>(threadIdx.x % 32);
    const std::uint64_t last = end[list];
    std::uint64_t count = 0;
    Tick last_end = 0;
    for (std::uint64_t base = begin[list]; base < last; base += 32) {
        const bool valid = base + lane < last;
        const Tick start = valid ? starts[base + lane] : 0;
        const Tick finish = valid ? ends[base + lane] : 0;
        for (int after = -1;;) {  // lanes up to `after` are decided
            const unsigned takers = __ballot_sync(~0u, valid && lane > after && (count == 0 || start > last_end));
            if (takers == 0) break;
            after = __ffs(takers) - 1;
            last_end = __shfl_sync(~0u, finish, after);
            ++count;
        }
    }
    if (lane == 0) counts[list] = count;
}

/// Copies lists: list i's `length[i]` entries from `from[i]` to `to[i]`. One block per list.
__global__ void copy_lists_kernel(const Tick* src_ends, const Tick* src_starts, const std::uint64_t* from,
                                  const std::uint64_t* to, const std::uint64_t* length, Tick* dst_ends, Tick* dst_starts) {
    const std::uint32_t i = blockIdx.x;
    for (std::uint64_t k = threadIdx.x; k < length[i]; k += blockDim.x) {
        dst_ends[to[i] + k] = src_ends[from[i] + k];
        dst_starts[to[i] + k] = src_starts[from[i] + k];
    }
}

}  // namespace spikeminer::mining::detail
