// What the GPU clique search and the host share: the graph as the kernels read it, the
// search's parameters, each worker's slice of the workspace, and the block shape
// (clique_search.cuh has the search itself).
#pragma once

#include "../tuning.hpp"
#include "clique_layout.hpp"
#include "clique_output.cuh"
#include "worker_list.cuh"

#include <cstddef>
#include <cstdint>

namespace spikeminer::graph::detail::gpu {

using Vertex = std::uint32_t;
constexpr Vertex kNoVertex = ~Vertex{0};
constexpr int kBlockThreads = tuning::kCliqueBlockThreads;
constexpr int kMinBlocks = tuning::kCliqueMinBlocks;  // per SM
/// Fixed-width kernels pack a pivot candidate's index (< |P| + |X| <= the largest degree)
/// in this many bits: the host takes the any-width kernel for larger degrees.
constexpr int kPivotIndexBits = 23;

/// The index of the first entry of sorted list[0..n) that is > x (or >= x when `equal`).
__device__ inline int bound(const Vertex* list, int n, Vertex x, bool equal) {
    int lo = 0;
    while (lo < n) {
        const int mid = (lo + n) / 2;
        if (list[mid] < x || (!equal && list[mid] == x)) lo = mid + 1; else n = mid;
    }
    return lo;
}

/// A view of a DeviceCsr that kernels take by value.
struct CsrView {
    const unsigned long long* offsets;
    const Vertex* neighbors;

    __device__ const Vertex* list(Vertex v) const { return neighbors + offsets[v]; }
    __device__ int degree(Vertex v) const { return static_cast<int>(offsets[v + 1] - offsets[v]); }
    /// Whether b is a neighbour of a (binary search).
    __device__ bool adjacent(Vertex a, Vertex b) const {
        const int i = bound(list(a), degree(a), b, true);
        return i < degree(a) && list(a)[i] == b;
    }
};

struct SearchParams {
    CsrView graph;
    WorkerLayout layout;
    Word* workspace;
    const Vertex* item_first;   // v
    const Vertex* item_second;  // u (L2) or kNoVertex
    unsigned num_items;
    unsigned item_offset;       // this device takes items offset, offset + stride, ...
    unsigned item_stride;
    unsigned* next_item;
    unsigned long long* items_done;
    int min_size;
    unsigned long long limit;
    unsigned long long* reported;   // cliques counted against the limit
    int* stop;
    bool use_worker_list;
    bool hot_in_shared;             // candidate rows and per-depth bitsets in shared memory
    int donate_min_candidates;
    unsigned long long* hand_overs;  // branches handed to idle workers
    WorkerList worker_list;
    CliqueRing ring;                // used when layout.out_words > 0
    const Vertex* original;         // when listing: search id -> the graph's vertex id
    unsigned long long* total_count;
    unsigned long long* total_hist;  // layout.hist_size() entries
    const volatile int* cancel;      // host memory
    volatile unsigned long long* progress;  // host memory: items this device finished
};

/// One worker's slice of the workspace.
struct Workspace {
    Word* base;
    const WorkerLayout* l;

    __device__ Word* hot() const { return base + l->hot; }
    __device__ Word* row(int i) const { return base + l->rows + static_cast<std::size_t>(i) * l->words; }
    __device__ Vertex* pids() const { return base + l->pids; }
    __device__ Vertex* xids() const { return base + l->xids; }
    __device__ int* xx() const { return reinterpret_cast<int*>(base + l->xx); }
    __device__ Vertex* scratch() const { return base + l->scratch; }
    __device__ Vertex* clique() const { return base + l->clique; }
    __device__ int* header() const { return reinterpret_cast<int*>(base + l->header); }
    __device__ Word* out() const { return base + l->out; }
};

__device__ inline Workspace workspace_of(const SearchParams& p, int worker) {
    return {p.workspace + static_cast<std::size_t>(worker) * p.layout.stride, &p.layout};
}

}  // namespace spikeminer::graph::detail::gpu
