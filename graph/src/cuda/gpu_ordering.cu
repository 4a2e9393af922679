// Degeneracy ordering by k-core peeling on the GPU (one launch, see peel_kernel),
// relabelling, and the work items.
#include "../tuning.hpp"
#include "clique_params.cuh"
#include "device_calls.cuh"
#include "gpu_ordering.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <cooperative_groups.h>

#include <algorithm>
#include <climits>

namespace spikeminer::graph::detail::gpu {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::check_launch;
using spikeminer::detail::read_one;
using spikeminer::detail::run_cub;
using spikeminer::detail::upload_pooled;
using spikeminer::detail::DeviceBuffer;

using tuning::kThreads;
constexpr int kWarpsPerBlock = kThreads / 32;

unsigned blocks(std::size_t n, std::size_t per_block = kThreads) { return spikeminer::detail::blocks_for(n, per_block); }

// This thread's index in the grid, in 64 bits (a warp per vertex passes 2^32 threads).
__device__ unsigned long long global_thread() {
    return static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// What one phase of the peeling (a level scan or a round of the queue) leaves: how many
// vertices it queued and, for a scan, the smallest degree it saw among the rest. Phase p
// uses slot p % 3 and clears slot (p + 1) % 3, whose last values were read before the
// barrier that ended phase p - 1; so no thread reads a slot while another changes it.
struct PeelPhase {
    unsigned queued;
    unsigned least;
};

// A queued vertex's remaining degree carries this bit. Degrees stay below 2^31 (the graph
// has under 2^31 list entries). A degree counts the neighbours whose round has not come;
// each takes one from it in its round, so it is at least one when taken and the bit is
// never borrowed from (a neighbour may take it just after the vertex was queued).
constexpr unsigned kQueued = 1U << 31;

// The peeling's state: in shared memory when one block peels, else in global memory,
// read through L2 (__ldcg), since other blocks write it.
template <bool kOneBlock>
struct PeelState {
    unsigned* degree;   // n: remaining degree, kQueued once queued
    PeelPhase* phases;  // 3 slots

    template <typename T>
    __device__ T load(const T* at) const {
        if constexpr (kOneBlock) {
            return *at;
        } else {
            return __ldcg(at);
        }
    }

    // A barrier over the whole launch (several blocks were launched cooperatively, so
    // that they are all resident and can wait for each other).
    __device__ void barrier() const {
        if constexpr (kOneBlock) {
            __syncthreads();
        } else {
            cooperative_groups::this_grid().sync();
        }
    }
};

// Puts v next in the order: after the `end` already queued, counted in this phase's slot,
// one atomic for the lanes of a warp that queue together (one per lane serialized a scan's
// thousands of degree-1 vertices on a single counter).
template <bool kOneBlock>
__device__ void enqueue(Vertex v, unsigned end, PeelPhase* phase, const PeelState<kOneBlock>& state, Vertex* order,
                        Vertex* position) {
    const cooperative_groups::coalesced_group together = cooperative_groups::coalesced_threads();
    unsigned first = 0;
    if (together.thread_rank() == 0) first = atomicAdd(&phase->queued, together.size());
    const unsigned at = end + together.shfl(first, 0) + together.thread_rank();
    atomicOr(&state.degree[v], kQueued);
    order[at] = v;
    position[v] = at;
}

using tuning::kTilesAtOnce;

// Calls take(u) for each neighbour u of each vertex of order[head, end), spread evenly over
// the launch's warps. The vertices go 32 at a time (a group): a warp scans its group's list
// lengths and takes its edges 32 at a time (a tile), each lane finding its edge's vertex by
// a binary search over the scan. A round of fewer groups than warps shares each group's
// tiles among several warps: the densest core's rounds hold a few vertices with lists of
// thousands, which one warp a vertex walked 32 entries at a time, a load after a load.
// The lists are under 2^31 entries in all (relabel_on_device checks), so 32 bits hold them.
template <bool kOneBlock, typename Take>
__device__ void round_edges(unsigned head, unsigned end, const PeelState<kOneBlock>& state, const Vertex* order,
                            const unsigned long long* offsets, const Vertex* neighbors, unsigned long long warp,
                            unsigned long long warps, unsigned lane, const Take& take) {
    constexpr unsigned kAll = 0xffffffffU;
    const unsigned long long groups = (end - head + 31ULL) / 32;
    unsigned long long group = warp;
    unsigned long long group_step = warps;
    unsigned rank = 0;  // this warp's share of its group's tiles: tiles rank, rank + ranks, ...
    unsigned ranks = 1;
    if (groups < warps) {
        group = warp % groups;
        group_step = groups;
        rank = static_cast<unsigned>(warp / groups);
        ranks = static_cast<unsigned>((warps - 1 - group) / groups + 1);
    }
    for (; group < groups; group += group_step) {
        const unsigned long long at = head + group * 32 + lane;
        unsigned first = 0;
        unsigned length = 0;
        if (at < end) {
            const Vertex v = state.load(&order[at]);
            first = static_cast<unsigned>(offsets[v]);
            length = static_cast<unsigned>(offsets[v + 1]) - first;
        }
        unsigned reach = length;  // inclusive scan of the group's lengths
        for (unsigned d = 1; d < 32; d *= 2) {
            const unsigned below = __shfl_up_sync(kAll, reach, d);
            if (lane >= d) reach += below;
        }
        const unsigned total = __shfl_sync(kAll, reach, 31);
        const unsigned start = reach - length;
        for (unsigned tile = rank * 32; tile < total; tile += ranks * 32 * kTilesAtOnce) {
            Vertex got[kTilesAtOnce];
            for (unsigned k = 0; k < kTilesAtOnce; ++k) {
                const unsigned long long j = tile + static_cast<unsigned long long>(k) * ranks * 32 + lane;
                unsigned owner = 0;  // the first lane whose scan passes j
                for (unsigned step = 16; step >= 1; step /= 2) {
                    if (__shfl_sync(kAll, reach, owner + step - 1) <= j) owner += step;
                }
                const unsigned owner_first = __shfl_sync(kAll, first, owner);
                const unsigned owner_start = __shfl_sync(kAll, start, owner);
                got[k] = j < total ? neighbors[owner_first + (j - owner_start)] : kNoVertex;
            }
            for (const Vertex u : got) {
                if (u != kNoVertex) take(u);
            }
        }
    }
}

using tuning::kPeelThreads;

// The whole peeling in one launch. With k the level, every vertex whose remaining degree
// is at most k is queued; a queued vertex, in its round, takes one degree from each
// remaining neighbour, and a neighbour that falls from k + 1 to k is queued (once: degrees
// only fall). A vertex is queued with at most k neighbours not yet peeled, and each of its
// later neighbours is one of them, so it has at most k later neighbours. When the queue is
// empty, a scan of the remaining vertices raises the level: to k + 1, or, when the last
// scan queued none, to the smallest degree that scan saw. Every phase ends with one
// barrier: 300-500 phases on the small SNAP graphs, where a host round trip each took 4-12
// ms in all; one block with the degrees in shared memory takes about 2 us a phase, the
// chain of dependent instructions of a round, not loads from L2 or memory.
template <bool kOneBlock>
__global__ void __launch_bounds__(kPeelThreads)
    peel_kernel(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, unsigned* global_degree,
                PeelPhase* global_phases, Vertex* global_order, Vertex* position) {
    extern __shared__ unsigned shared_degree[];  // one block: n degrees, then the order when global_order is null
    __shared__ PeelPhase shared_phases[3];
    const PeelState<kOneBlock> state{kOneBlock ? shared_degree : global_degree, kOneBlock ? shared_phases : global_phases};
    Vertex* const order = global_order != nullptr ? global_order : shared_degree + n;
    const unsigned long long thread = global_thread();
    const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    const unsigned lane = threadIdx.x % 32;
    for (unsigned long long v = thread; v < n; v += threads) state.degree[v] = static_cast<unsigned>(offsets[v + 1] - offsets[v]);
    if (thread < 3) state.phases[thread] = PeelPhase{0, UINT_MAX};
    state.barrier();
    unsigned head = 0;  // order[head, end) is this round's
    unsigned end = 0;
    unsigned level = 0;
    bool raise_by_one = false;  // the last scan queued some: try the next level first
    for (unsigned p = 0;; ++p) {
        PeelPhase* const now = &state.phases[p % 3];
        if (thread == 0) state.phases[(p + 1) % 3] = PeelPhase{0, UINT_MAX};
        const bool scan = head == end;
        if (scan) {
            if (end == n) return;
            if (raise_by_one) {
                level += 1;
            } else if (p > 0) {
                level = state.load(&state.phases[(p - 1) % 3].least);
            }
            unsigned seen = UINT_MAX;
            for (unsigned long long v = thread; v < n; v += threads) {
                const unsigned d = state.load(&state.degree[v]);
                if ((d & kQueued) != 0) continue;
                if (d <= level) {
                    enqueue(static_cast<Vertex>(v), end, now, state, order, position);
                } else {
                    seen = min(seen, d);
                }
            }
            seen = __reduce_min_sync(0xffffffffU, seen);
            if (lane == 0 && seen != UINT_MAX) atomicMin(&now->least, seen);
        } else {
            // A neighbour loses a degree from a vertex of this round.
            const auto take_degree = [&](Vertex u) {
                if ((state.load(&state.degree[u]) & kQueued) == 0 && atomicSub(&state.degree[u], 1U) == level + 1) {
                    enqueue(u, end, now, state, order, position);
                }
            };
            round_edges(head, end, state, order, offsets, neighbors, thread / 32, threads / 32, lane, take_degree);
        }
        state.barrier();
        const unsigned queued = state.load(&now->queued);
        if (scan) raise_by_one = queued > 0;
        head = end;
        end += queued;
    }
}

// One block peels a graph whose degrees fit in its shared memory (up to about 58,000
// vertices on the H200; with the order too, up to about 29,000: 3 % off the kernel on
// biogrid-yeast and wiki-Vote); a larger one takes a cooperative launch of one block per
// multiprocessor, with its degrees in global memory.
void launch_peel(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, Vertex* position, cudaStream_t stream) {
    int device = 0;
    int shared_optin = 0;
    SPIKEMINER_CUDA_CHECK(cudaGetDevice(&device));
    SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const std::size_t room = static_cast<std::size_t>(shared_optin) - 3 * sizeof(PeelPhase);
    const std::size_t degree_bytes = static_cast<std::size_t>(n) * sizeof(unsigned);
    const bool one_block = degree_bytes <= room;
    const bool order_in_shared = one_block && degree_bytes + static_cast<std::size_t>(n) * sizeof(Vertex) <= room;
    DeviceBuffer<Vertex> order;
    if (!order_in_shared) order = allocate_or_oom<Vertex>(n, "peeling", stream);
    if (one_block) {
        const std::size_t shared_bytes = degree_bytes + (order_in_shared ? static_cast<std::size_t>(n) * sizeof(Vertex) : 0);
        SPIKEMINER_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(peel_kernel<true>),
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
        peel_kernel<true><<<1, kPeelThreads, shared_bytes, stream>>>(n, offsets, neighbors, nullptr, nullptr, order.get(), position);
        check_launch();
        return;
    }
    auto degree = allocate_or_oom<unsigned>(n, "peeling", stream);
    auto phases = allocate_or_oom<PeelPhase>(3, "peeling", stream);
    int multiprocessors = 0;
    int per_sm = 0;
    SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    SPIKEMINER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, peel_kernel<false>, kPeelThreads, 0));
    if (per_sm == 0) throw Error("the GPU peeling kernel does not fit on a multiprocessor of this device");
    unsigned* degree_at = degree.get();
    PeelPhase* phases_at = phases.get();
    Vertex* order_at = order.get();
    void* args[] = {&n, &offsets, &neighbors, &degree_at, &phases_at, &order_at, &position};
    SPIKEMINER_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(peel_kernel<false>),
                                                      dim3(static_cast<unsigned>(multiprocessors)),
                                                      dim3(kPeelThreads), args, 0, stream));
    // The buffers go back to the pool after the launch, in stream order.
}

// One thread per vertex: its degree at its new place.
__global__ void relabelled_degrees_kernel(Vertex n, const unsigned long long* offsets, const Vertex* position,
                                   unsigned long long* degree_at) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) degree_at[position[v]] = offsets[v + 1] - offsets[v];
}

// One warp per vertex: its list, renamed, at its new place (sorted afterwards).
__global__ void relabel_lists_kernel(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, const Vertex* position,
                              const unsigned long long* new_offsets, Vertex* new_neighbors) {
    const unsigned long long w = global_thread() / 32;
    if (w >= n) return;
    const auto v = static_cast<Vertex>(w);
    const unsigned long long to = new_offsets[position[v]];
    for (unsigned long long e = offsets[v] + threadIdx.x % 32; e < offsets[v + 1]; e += 32) {
        new_neighbors[to + (e - offsets[v])] = position[neighbors[e]];
    }
}

// One thread per vertex (lists relabelled and sorted): how many neighbours come after it.
__global__ void later_counts_kernel(Vertex n, const unsigned long long* offsets, const Vertex* neighbors, unsigned* later,
                             Vertex* identity) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    const int deg = static_cast<int>(offsets[v + 1] - offsets[v]);
    later[v] = static_cast<unsigned>(deg - bound(neighbors + offsets[v], deg, v, false));
    identity[v] = v;
}

// One thread per vertex in item order: the work items it makes (one per later edge, or itself).
__global__ void item_counts_kernel(unsigned n, const Vertex* sorted, const unsigned* later, unsigned edge_from, unsigned* items) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) items[i] = later[sorted[i]] >= edge_from ? later[sorted[i]] : 1U;
}

// One warp per vertex (in item order): its edges to later neighbours, or itself alone when
// it has fewer than edge_from of them.
__global__ void edge_items_kernel(unsigned n, const Vertex* sorted, const unsigned* start, const unsigned long long* offsets,
                           const Vertex* neighbors, const unsigned* later, unsigned edge_from, Vertex* first, Vertex* second) {
    const unsigned long long i = global_thread() / 32;
    if (i >= n) return;
    const Vertex v = sorted[i];
    const unsigned lane = threadIdx.x % 32;
    if (later[v] < edge_from) {
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

DeviceCsr upload_graph(const Graph& graph, cudaStream_t stream) {
    DeviceCsr out;
    out.vertices = graph.num_vertices();
    out.entries = 2 * graph.num_edges();
    static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long));
    out.offsets = upload_pooled(reinterpret_cast<const unsigned long long*>(graph.offsets().data()),
                                static_cast<std::size_t>(out.vertices) + 1, "graph offsets", stream);
    // The lists lie one after the other in the Graph: one copy.
    out.neighbors = upload_pooled(out.vertices == 0 ? nullptr : graph.neighbors(0).data(), out.entries, "graph neighbours", stream);
    for (Vertex v = 0; v < out.vertices; ++v) out.max_degree = std::max(out.max_degree, graph.degree(v));
    return out;
}

DeviceCsr relabel_on_device(const DeviceCsr& graph, std::vector<Vertex>& position, bool read_back, cudaStream_t stream) {
    const Vertex n = graph.vertices;
    const std::size_t entries = graph.entries;
    if (entries > static_cast<std::size_t>(INT_MAX) || n > static_cast<Vertex>(INT_MAX)) {
        throw Error("the GPU clique engine takes graphs of up to " + std::to_string(INT_MAX / 2) + " edges and " +
                    std::to_string(INT_MAX) + " vertices");
    }
    const bool peel = position.empty();
    DeviceBuffer<Vertex> d_position;
    if (!peel) {
        d_position = upload_pooled(position.data(), position.size(), "degeneracy order", stream);
    } else {
        d_position = allocate_or_oom<Vertex>(n, "degeneracy order", stream);
        launch_peel(n, graph.offsets.get(), graph.neighbors.get(), d_position.get(), stream);
    }
    DeviceCsr out;
    out.vertices = n;
    out.entries = entries;
    out.max_degree = graph.max_degree;
    auto degree_at = allocate_or_oom<unsigned long long>(static_cast<std::size_t>(n) + 1, "relabelling", stream);
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(degree_at.get(), 0, (static_cast<std::size_t>(n) + 1) * sizeof(unsigned long long), stream));
    relabelled_degrees_kernel<<<blocks(n), kThreads, 0, stream>>>(n, graph.offsets.get(), d_position.get(), degree_at.get());
    out.offsets = allocate_or_oom<unsigned long long>(static_cast<std::size_t>(n) + 1, "graph offsets", stream);
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, degree_at.get(), out.offsets.get(), n + 1, stream);
    }, stream);
    auto unsorted = allocate_or_oom<Vertex>(entries, "relabelling", stream);
    relabel_lists_kernel<<<blocks(n, kWarpsPerBlock), kThreads, 0, stream>>>(n, graph.offsets.get(), graph.neighbors.get(), d_position.get(),
                                                                       out.offsets.get(), unsorted.get());
    out.neighbors = allocate_or_oom<Vertex>(entries, "graph neighbours", stream);
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortKeys(temp, bytes, unsorted.get(), out.neighbors.get(), static_cast<int>(entries),
                                                  static_cast<int>(n), out.offsets.get(), out.offsets.get() + 1, stream);
    }, stream);
    // Last: a copy into pageable memory waits for the work before it, which is all queued
    // by now (read back earlier, it kept the relabelling's launches behind the peeling).
    if (peel && read_back) {
        position.resize(n);
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(position.data(), d_position.get(), n * sizeof(Vertex), cudaMemcpyDeviceToHost, stream));
    }
    return out;
}

DeviceItems make_items(const DeviceCsr& graph, SubtreeLevel level, std::size_t l2_from, cudaStream_t stream) {
    const auto edge_from = static_cast<unsigned>(std::clamp<std::size_t>(l2_from, 1, UINT_MAX));
    const Vertex n = graph.vertices;
    auto later = allocate_or_oom<unsigned>(n, "work items", stream);
    auto identity = allocate_or_oom<Vertex>(n, "work items", stream);
    later_counts_kernel<<<blocks(n), kThreads, 0, stream>>>(n, graph.offsets.get(), graph.neighbors.get(), later.get(), identity.get());
    auto sorted_later = allocate_or_oom<unsigned>(n, "work items", stream);
    auto sorted = allocate_or_oom<Vertex>(n, "work items", stream);
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, later.get(), sorted_later.get(), identity.get(),
                                                         sorted.get(), static_cast<int>(n), 0, 32, stream);
    }, stream);
    DeviceItems items;
    items.max_later = read_one(sorted_later.get(), stream);
    if (level == SubtreeLevel::L1) {
        items.first = std::move(sorted);
        items.second = allocate_or_oom<Vertex>(n, "work items", stream);
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(items.second.get(), 0xff, n * sizeof(Vertex), stream));
        items.count = n;
        return items;
    }
    auto counts = allocate_or_oom<unsigned>(static_cast<std::size_t>(n) + 1, "work items", stream);
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, (static_cast<std::size_t>(n) + 1) * sizeof(unsigned), stream));
    item_counts_kernel<<<blocks(n), kThreads, 0, stream>>>(n, sorted.get(), later.get(), edge_from, counts.get());
    auto start = allocate_or_oom<unsigned>(static_cast<std::size_t>(n) + 1, "work items", stream);
    run_cub([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, counts.get(), start.get(), n + 1, stream);
    }, stream);
    items.count = read_one(start.get() + n, stream);
    items.first = allocate_or_oom<Vertex>(items.count, "work items", stream);
    items.second = allocate_or_oom<Vertex>(items.count, "work items", stream);
    edge_items_kernel<<<blocks(n, kWarpsPerBlock), kThreads, 0, stream>>>(n, sorted.get(), start.get(), graph.offsets.get(),
                                                                  graph.neighbors.get(), later.get(), edge_from, items.first.get(),
                                                                  items.second.get());
    check_launch();
    return items;
}

}  // namespace spikeminer::graph::detail::gpu
