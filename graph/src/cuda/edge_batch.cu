// See edge_batch.hpp.
#include "device_calls.cuh"
#include "device_index.cuh"
#include "edge_batch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <bit>
#include <climits>

namespace spikeminer::graph::detail::gpu {
namespace {

using spikeminer::detail::blocks_for;
using spikeminer::detail::run_cub_queued;

constexpr int kThreads = 256;

__device__ float value_of(const EdgeUpdate& e) { return e.value; }
__device__ float value_of(const EdgeRef&) { return 0.0F; }

// Keys and their batch positions; the first update naming a vertex out of range is
// recorded (atomicMin over positions) in *first_bad.
template <typename Edge>
__global__ void make_keys(std::size_t n, const Edge* edges, Vertex vertices, std::uint64_t* keys, std::uint32_t* index,
                          unsigned long long* first_bad) {
    const std::size_t i = spikeminer::detail::thread_index();
    if (i >= n) return;
    const Edge e = edges[i];
    if (e.src >= vertices || e.dst >= vertices) atomicMin(first_bad, static_cast<unsigned long long>(i));
    keys[i] = (std::uint64_t{e.src} << 32) | e.dst;
    index[i] = static_cast<std::uint32_t>(i);
}

// The last of each run of equal sorted keys (the batch's last update of that key) is
// kept, with the value of the update it came from.
template <typename Edge>
__global__ void keep_last(std::size_t n, const std::uint64_t* keys, const std::uint32_t* index, const Edge* edges,
                          unsigned char* keep, float* values) {
    const std::size_t i = spikeminer::detail::thread_index();
    if (i >= n) return;
    keep[i] = i + 1 == n || keys[i] != keys[i + 1];
    values[i] = value_of(edges[index[i]]);
}

}  // namespace

void check_batch_size(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) throw Error("a dynamic graph's batch holds at most 2^31 - 1 updates");
}

template <typename Edge>
SortedBatch sorted_unique_batch(const Edge* edges, std::size_t n, Vertex vertices, spikeminer::detail::DeviceArena& arena,
                                cudaStream_t stream) {
    SortedBatch out;
    check_batch_size(n);
    if (n == 0) return out;
    // counters[0]: the first bad position (n when none); counters[1]: unique keys.
    auto* counters = arena.take<unsigned long long>(2, "edge batch");
    const unsigned long long none[2] = {n, 0};
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(counters, none, sizeof none, cudaMemcpyHostToDevice, stream));
    auto* keys = arena.take<std::uint64_t>(n, "edge batch");
    auto* index = arena.take<std::uint32_t>(n, "edge batch");
    make_keys<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(n, edges, vertices, keys, index, counters);
    auto* sorted_keys = arena.take<std::uint64_t>(n, "edge batch");
    auto* sorted_index = arena.take<std::uint32_t>(n, "edge batch");
    // Only the bits that vertex ids can use (the radix passes are the cost).
    const int end_bit = 32 + std::max(1, static_cast<int>(std::bit_width(vertices == 0 ? 0U : vertices - 1)));
    run_cub_queued(arena, [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys, sorted_keys, index, sorted_index, static_cast<int>(n), 0, end_bit, stream);
    });
    auto* keep = arena.take<unsigned char>(n, "edge batch");
    auto* all_values = arena.take<float>(n, "edge batch");
    keep_last<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(n, sorted_keys, sorted_index, edges, keep, all_values);
    out.keys = arena.take<std::uint64_t>(n, "edge batch");
    out.values = arena.take<float>(n, "edge batch");
    run_cub_queued(arena, [&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, sorted_keys, keep, out.keys, counters + 1, static_cast<int>(n), stream);
    });
    run_cub_queued(arena, [&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, all_values, keep, out.values, counters + 1, static_cast<int>(n), stream);
    });
    SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    unsigned long long host[2] = {0, 0};
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(host, counters, sizeof host, cudaMemcpyDeviceToHost, stream));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (host[0] < n) {
        const Edge bad = spikeminer::detail::read_one(edges + host[0], stream);
        check_edge(bad.src, bad.dst, vertices);  // throws, naming the edge
    }
    out.n = host[1];
    return out;
}

template SortedBatch sorted_unique_batch(const EdgeUpdate*, std::size_t, Vertex, spikeminer::detail::DeviceArena&, cudaStream_t);
template SortedBatch sorted_unique_batch(const EdgeRef*, std::size_t, Vertex, spikeminer::detail::DeviceArena&, cudaStream_t);

}  // namespace spikeminer::graph::detail::gpu
