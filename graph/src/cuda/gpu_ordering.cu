// Degeneracy ordering by k-core peeling on the GPU, relabelling, and the work items.
//
// Peeling: with k the current core level, every remaining vertex of degree <= k is
// removed in one sub-round (its place in the order taken with an atomic counter) and its
// remaining neighbours lose one degree each; when none is left at k, k rises to the
// smallest remaining degree. A vertex removed at level k has at most k neighbours left
// after it, so each vertex has at most `degeneracy` later neighbours, which is all the
// clique search needs (the order within a sub-round is arbitrary).
#include "clique_search.cuh"
#include "device_calls.cuh"
#include "gpu_ordering.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <climits>

namespace spikeminer::graph::detail::gpu {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::check_launch;
using spikeminer::detail::read_one;
using spikeminer::detail::run_cub;
using spikeminer::detail::upload;
using spikeminer::detail::DeviceBuffer;

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

unsigned blocks(std::size_t n, std::size_t per_block = kThreads) { return spikeminer::detail::blocks_for(n, per_block); }

// This thread's index in the grid, in 64 bits (a warp per vertex passes 2^32 threads).
__device__ unsigned long long global_thread() {
    return static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

struct PeelCounters {
    unsigned removed;         // this sub-round
    unsigned next_level;      // smallest remaining degree above the level
};

__global__ void peel_select(Vertex n, unsigned level, unsigned placed, unsigned* degree, unsigned char* gone,
                            Vertex* position, Vertex* frontier, PeelCounters* counters) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || gone[v]) return;
    if (degree[v] <= level) {
        const unsigned slot = atomicAdd(&counters->removed, 1U);
        gone[v] = 1;
        position[v] = placed + slot;
        frontier[slot] = v;
    } else {
        atomicMin(&counters->next_level, degree[v]);
    }
}

// One warp per removed vertex: its remaining neighbours lose a degree.
__global__ void peel_decrement(const unsigned long long* offsets, const Vertex* neighbors, const Vertex* frontier,
                               unsigned count, const unsigned char* gone, unsigned* degree) {
    const unsigned long long warp = global_thread() / 32;
    if (warp >= count) return;
    const Vertex v = frontier[warp];
    for (unsigned long long e = offsets[v] + threadIdx.x % 32; e < offsets[v + 1]; e += 32) {
        const Vertex u = neighbors[e];
        if (!gone[u]) atomicSub(&degree[u], 1U);
    }
}

__global__ void relabelled_degrees(Vertex n, const unsigned long long* offsets, const Vertex* position,
                                   unsigned long long* degree_at) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) degree_at[position[v]] = offsets[v + 1] - offsets[v];
}

// One warp per vertex: its list, renamed, at its new place (sorted afterwards).
__global__ void relabel_lists(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, const Vertex* position,
                              const unsigned long long* new_offsets, Vertex* new_neighbors) {
    const unsigned long long w = global_thread() / 32;
    if (w >= n) return;
    const auto v = static_cast<Vertex>(w);
    const unsigned long long to = new_offsets[position[v]];
    for (unsigned long long e = offsets[v] + threadIdx.x % 32; e < offsets[v + 1]; e += 32) {
        new_neighbors[to + (e - offsets[v])] = position[neighbors[e]];
    }
}

__global__ void later_counts(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, unsigned* later,
                             Vertex* identity) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    const int deg = static_cast<int>(offsets[v + 1] - offsets[v]);
    later[v] = static_cast<unsigned>(deg - bound(neighbors + offsets[v], deg, v, false));
    identity[v] = v;
}

__global__ void at_least_one(unsigned n, const Vertex* sorted, const unsigned* later, unsigned* items) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) items[i] = max(1U, later[sorted[i]]);
}

// One warp per vertex (in item order): its edges to later neighbours, or itself alone.
__global__ void edge_items(unsigned n, const Vertex* sorted, const unsigned* start, const unsigned long long* offsets,
                           const Vertex* neighbors, const unsigned* later, Vertex* first, Vertex* second) {
    const unsigned long long i = global_thread() / 32;
    if (i >= n) return;
    const Vertex v = sorted[i];
    const unsigned lane = threadIdx.x % 32;
    if (later[v] == 0) {
        if (lane == 0) {
            first[start[i]] = v;
            second[start[i]] = kNoVertex;
        }
        return;
    }
    const unsigned long long tail = offsets[v + 1] - later[v];
    for (unsigned k = lane; k < later[v]; k += 32) {
        first[start[i] + k] = v;
        second[start[i] + k] = neighbors[tail + k];
    }
}

}  // namespace

DeviceGraphData relabel_on_device(const Graph& graph, std::vector<Vertex>& position, cudaStream_t stream) {
    const Vertex n = graph.num_vertices();
    const std::size_t entries = 2 * graph.num_edges();
    if (entries > static_cast<std::size_t>(INT_MAX) || n > static_cast<Vertex>(INT_MAX)) {
        throw Error("the GPU clique engine takes graphs of up to " + std::to_string(INT_MAX / 2) + " edges and " +
                    std::to_string(INT_MAX) + " vertices");
    }
    std::vector<unsigned long long> host_offsets(static_cast<std::size_t>(n) + 1, 0);
    for (Vertex v = 0; v < n; ++v) host_offsets[v + 1] = host_offsets[v] + graph.degree(v);
    auto offsets = upload(host_offsets.data(), host_offsets.size(), "graph offsets", stream);
    // The lists lie one after the other in the Graph: one copy.
    auto neighbors = upload(n == 0 ? nullptr : graph.neighbors(0).data(), entries, "graph neighbours", stream);
    DeviceBuffer<Vertex> d_position;
    if (!position.empty()) {
        d_position = upload(position.data(), position.size(), "degeneracy order", stream);
    } else {
        d_position = allocate_or_oom<Vertex>(n, "degeneracy order");
        auto degree = allocate_or_oom<unsigned>(n, "peeling");
        auto gone = allocate_or_oom<unsigned char>(n, "peeling");
        auto frontier = allocate_or_oom<Vertex>(n, "peeling");
        auto counters = allocate_or_oom<PeelCounters>(1, "peeling");
        std::vector<unsigned> host_degree(n);
        for (Vertex v = 0; v < n; ++v) host_degree[v] = static_cast<unsigned>(graph.degree(v));
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(degree.get(), host_degree.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice, stream));
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(gone.get(), 0, n, stream));
        unsigned level = 0;
        unsigned placed = 0;
        while (placed < n) {
            const PeelCounters reset{0, UINT_MAX};
            SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(counters.get(), &reset, sizeof reset, cudaMemcpyHostToDevice, stream));
            peel_select<<<blocks(n), kThreads, 0, stream>>>(n, level, placed, degree.get(), gone.get(), d_position.get(),
                                                            frontier.get(), counters.get());
            const PeelCounters got = read_one(counters.get(), stream);
            if (got.removed == 0) {
                level = got.next_level;
                continue;
            }
            peel_decrement<<<blocks(got.removed, kWarpsPerBlock), kThreads, 0, stream>>>(
                offsets.get(), neighbors.get(), frontier.get(), got.removed, gone.get(), degree.get());
            placed += got.removed;
        }
        check_launch();
        position.resize(n);
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(position.data(), d_position.get(), n * sizeof(Vertex), cudaMemcpyDeviceToHost, stream));
    }
    DeviceGraphData out;
    out.vertices = n;
    auto degree_at = allocate_or_oom<unsigned long long>(static_cast<std::size_t>(n) + 1, "relabelling");
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(degree_at.get(), 0, (static_cast<std::size_t>(n) + 1) * sizeof(unsigned long long), stream));
    relabelled_degrees<<<blocks(n), kThreads, 0, stream>>>(n, offsets.get(), d_position.get(), degree_at.get());
    out.offsets = allocate_or_oom<unsigned long long>(static_cast<std::size_t>(n) + 1, "graph offsets");
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, degree_at.get(), out.offsets.get(), n + 1, stream);
    }, stream);
    auto unsorted = allocate_or_oom<Vertex>(entries, "relabelling");
    relabel_lists<<<blocks(n, kWarpsPerBlock), kThreads, 0, stream>>>(n, offsets.get(), neighbors.get(), d_position.get(),
                                                                       out.offsets.get(), unsorted.get());
    out.neighbors = allocate_or_oom<Vertex>(entries, "graph neighbours");
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortKeys(temp, bytes, unsorted.get(), out.neighbors.get(), static_cast<int>(entries),
                                                  static_cast<int>(n), out.offsets.get(), out.offsets.get() + 1, stream);
    }, stream);
    for (Vertex v = 0; v < n; ++v) out.max_degree = std::max(out.max_degree, graph.degree(v));
    return out;
}

DeviceItems make_items(const DeviceGraphData& graph, SubtreeLevel level, cudaStream_t stream) {
    const Vertex n = graph.vertices;
    auto later = allocate_or_oom<unsigned>(n, "work items");
    auto identity = allocate_or_oom<Vertex>(n, "work items");
    later_counts<<<blocks(n), kThreads, 0, stream>>>(n, graph.offsets.get(), graph.neighbors.get(), later.get(), identity.get());
    auto sorted_later = allocate_or_oom<unsigned>(n, "work items");
    auto sorted = allocate_or_oom<Vertex>(n, "work items");
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, later.get(), sorted_later.get(), identity.get(),
                                                         sorted.get(), static_cast<int>(n), 0, 32, stream);
    }, stream);
    DeviceItems items;
    items.max_later = read_one(sorted_later.get(), stream);
    if (level == SubtreeLevel::L1) {
        items.first = std::move(sorted);
        items.second = allocate_or_oom<Vertex>(n, "work items");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(items.second.get(), 0xff, n * sizeof(Vertex), stream));
        items.count = n;
        return items;
    }
    auto counts = allocate_or_oom<unsigned>(static_cast<std::size_t>(n) + 1, "work items");
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, (static_cast<std::size_t>(n) + 1) * sizeof(unsigned), stream));
    at_least_one<<<blocks(n), kThreads, 0, stream>>>(n, sorted.get(), later.get(), counts.get());
    auto start = allocate_or_oom<unsigned>(static_cast<std::size_t>(n) + 1, "work items");
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, counts.get(), start.get(), n + 1, stream);
    }, stream);
    items.count = read_one(start.get() + n, stream);
    items.first = allocate_or_oom<Vertex>(items.count, "work items");
    items.second = allocate_or_oom<Vertex>(items.count, "work items");
    edge_items<<<blocks(n, kWarpsPerBlock), kThreads, 0, stream>>>(n, sorted.get(), start.get(), graph.offsets.get(),
                                                                  graph.neighbors.get(), later.get(), items.first.get(),
                                                                  items.second.get());
    check_launch();
    return items;
}

}  // namespace spikeminer::graph::detail::gpu
