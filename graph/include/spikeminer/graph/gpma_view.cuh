#pragma once
// Reading a GpmaView (GPMA+ in place, or a compact CSR) in device code.

#include "spikeminer/graph/gpu_pma.hpp"

namespace spikeminer::graph {

/// Calls f(target, slot) for each out-neighbour of v, in target order; the edge's value
/// is view.values[slot]. Only the keys at the front of each segment in v's range are
/// read, never the empty slots behind them.
template <typename F>
__device__ void for_each_neighbor(const GpmaView& view, Vertex v, F f) {
    const std::uint64_t end = view.row_start[v + 1];
    std::uint64_t p = view.row_start[v];
    while (p < end) {
        if (view.counts == nullptr) {
            for (; p < end; ++p) f(static_cast<Vertex>(view.keys[p] & 0xffffffffU), p);
            return;
        }
        const std::uint64_t s = p / view.segment;
        const std::uint64_t filled = min(end, s * view.segment + view.counts[s]);
        for (; p < filled; ++p) f(static_cast<Vertex>(view.keys[p] & 0xffffffffU), p);
        p = (s + 1) * view.segment;
    }
}

/// v's out-degree.
__device__ inline std::uint32_t degree(const GpmaView& view, Vertex v) {
    std::uint32_t d = 0;
    for_each_neighbor(view, v, [&d](Vertex, std::uint64_t) { ++d; });
    return d;
}

}  // namespace spikeminer::graph
