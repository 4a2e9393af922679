// See edge_batch.hpp.
#include "../tuning.hpp"
#include "device_calls.cuh"
#include "device_index.cuh"
#include "edge_batch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <bit>
#include <climits>

namespace spikeminer::graph::detail::gpu {
namespace {

using spikeminer::detail::blocks_for;
using spikeminer::detail::run_cub_queued;

using tuning::kThreads;
constexpr unsigned long long kNone = ~0ULL;

__device__ float value_of(const EdgeUpdate& e) { return e.value; }
__device__ float value_of(const EdgeRef&) { return 0.0F; }

// The updates in a batch of `bound` slots: all, or *n when n is given (the rest is padding).
__device__ std::size_t updates_in(std::size_t bound, const unsigned long long* n) { return n == nullptr ? bound : *n; }

// Sort keys (src << bits | dst: no unused bits between the ids, so the radix sort makes
// fewer passes) and their batch positions (padding: ~0, which sorts last, after any key
// equal to it in the sorted bits, the sort being stable); the first update naming a
// vertex out of range is recorded (atomicMin over positions) in *first_bad.
template <typename Edge>
__global__ void make_keys_kernel(std::size_t bound, const unsigned long long* n, const Edge* edges, Vertex vertices, int bits,
                          std::uint64_t* keys, std::uint32_t* index, unsigned long long* first_bad) {
    const std::size_t i = spikeminer::detail::thread_index();
    if (i >= bound) return;
    index[i] = static_cast<std::uint32_t>(i);
    if (i >= updates_in(bound, n)) {
        keys[i] = ~std::uint64_t{0};
        return;
    }
    const Edge e = edges[i];
    if (e.src >= vertices || e.dst >= vertices) atomicMin(first_bad, static_cast<unsigned long long>(i));
    keys[i] = (std::uint64_t{e.src} << bits) | e.dst;
}

// The last of each run of equal sorted keys: the batch's last update of that key.
struct LastOfRun {
    const std::uint64_t* keys;
    std::size_t bound;
    const unsigned long long* n;
    __device__ unsigned operator()(std::size_t i) const {
        const std::size_t real = updates_in(bound, n);
        return i < real && (i + 1 == real || keys[i] != keys[i + 1]) ? 1U : 0U;
    }
};

// Each kept key goes to its place (`position`: the exclusive scan of LastOfRun) with the
// value of the update it came from; the last thread writes the counts.
template <typename Edge>
__global__ void keep_last_kernel(LastOfRun last_of_run, int bits, const std::uint32_t* index, const unsigned* position, const Edge* edges,
                          BatchCounts* counts, std::uint64_t* keys, float* values) {
    const std::size_t i = spikeminer::detail::thread_index();
    if (i >= last_of_run.bound) return;
    if (last_of_run(i) != 0) {
        const std::uint64_t packed = last_of_run.keys[i];
        keys[position[i]] = ((packed >> bits) << 32) | (packed & ((std::uint64_t{1} << bits) - 1));
        values[position[i]] = value_of(edges[index[i]]);
    }
    if (i + 1 != updates_in(last_of_run.bound, last_of_run.n)) return;
    const unsigned long long bad = counts->first_bad;
    if (bad == kNone) {
        counts->unique = position[i] + 1ULL;  // the last key is always kept
    } else {
        counts->unique = 0;
        counts->bad_src = edges[bad].src;
        counts->bad_dst = edges[bad].dst;
    }
}

}  // namespace

void check_batch_size(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) throw Error("a dynamic graph's batch holds at most 2^31 - 1 updates");
}

template <typename Edge>
SortedBatch sorted_unique_batch(const Edge* edges, std::size_t n, const unsigned long long* updates, Vertex vertices,
                                spikeminer::detail::DeviceArena& arena, cudaStream_t stream) {
    SortedBatch out;
    check_batch_size(n);
    out.bound = n;
    if (n == 0) return out;
    out.counts = arena.take<BatchCounts>(1, "edge batch");
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(out.counts, 0xff, sizeof(BatchCounts), stream));  // first_bad: none
    auto* keys = arena.take<std::uint64_t>(n, "edge batch");
    auto* index = arena.take<std::uint32_t>(n, "edge batch");
    const int bits = std::max(1, static_cast<int>(std::bit_width(vertices == 0 ? 0U : vertices - 1)));  // per vertex id
    make_keys_kernel<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(n, updates, edges, vertices, bits, keys, index, &out.counts->first_bad);
    auto* sorted_keys = arena.take<std::uint64_t>(n, "edge batch");
    auto* sorted_index = arena.take<std::uint32_t>(n, "edge batch");
    run_cub_queued(arena, [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys, sorted_keys, index, sorted_index, static_cast<int>(n), 0, 2 * bits, stream);
    });
    auto* position = arena.take<unsigned>(n, "edge batch");
    const LastOfRun last_of_run{sorted_keys, n, updates};
    const auto flags = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), last_of_run);
    run_cub_queued(arena, [&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, flags, position, static_cast<int>(n), stream);
    });
    out.keys = arena.take<std::uint64_t>(n, "edge batch");
    out.values = arena.take<float>(n, "edge batch");
    keep_last_kernel<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(last_of_run, bits, sorted_index, position, edges, out.counts,
                                                                out.keys, out.values);
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    return out;
}

std::size_t read_unique(const SortedBatch& batch, Vertex vertices, cudaStream_t stream) {
    if (batch.bound == 0) return 0;
    const BatchCounts counts = spikeminer::detail::read_one(batch.counts, stream);
    if (counts.first_bad != kNone) check_edge(counts.bad_src, counts.bad_dst, vertices);  // throws, naming the edge
    return counts.unique;
}

template SortedBatch sorted_unique_batch(const EdgeUpdate*, std::size_t, const unsigned long long*, Vertex, spikeminer::detail::DeviceArena&,
                                         cudaStream_t);
template SortedBatch sorted_unique_batch(const EdgeRef*, std::size_t, const unsigned long long*, Vertex, spikeminer::detail::DeviceArena&,
                                         cudaStream_t);

}  // namespace spikeminer::graph::detail::gpu
