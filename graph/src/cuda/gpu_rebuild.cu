// See gpu_rebuild.hpp.
#include "../tuning.hpp"
#include "device_arena.hpp"
#include "device_calls.cuh"
#include "device_index.cuh"
#include "device_stream.hpp"
#include "edge_batch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/gpu_rebuild.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <bit>
#include <climits>

namespace spikeminer::graph {
namespace {

using detail::gpu::SortedBatch;
using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::DeviceArena;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::download;
using spikeminer::detail::lower_bound;
using spikeminer::detail::run_cub_queued;
using spikeminer::detail::thread_index;

using tuning::kThreads;

unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }

// One thread per element: its index.
__global__ void iota_kernel(std::size_t n, std::uint32_t* out) {
    const std::size_t i = thread_index();
    if (i < n) out[i] = static_cast<std::uint32_t>(i);
}

// After a stable sort of (existing edges, then the batch): an insert keeps the last of
// each run of equal keys (the batch's value wins); an erase keeps an existing key (its
// origin below `existing`) that no batch key follows.
__global__ void keep_after_sort_kernel(std::size_t n, const std::uint64_t* keys, const std::uint32_t* origin, std::size_t existing, bool erasing,
                                unsigned char* keep) {
    const std::size_t i = thread_index();
    if (i >= n) return;
    const bool last_of_run = i + 1 == n || keys[i + 1] != keys[i];
    keep[i] = erasing ? origin[i] < existing && last_of_run : last_of_run;
}

// One thread per sorted entry: its value, from where the sort took its key.
__global__ void gather_kernel(std::size_t n, const std::uint32_t* origin, const float* from, float* to) {
    const std::size_t i = thread_index();
    if (i < n) to[i] = from[origin[i]];
}

// One thread per vertex (and one past the last): where its row starts in the sorted keys.
__global__ void row_starts_kernel(std::size_t vertices, const std::uint64_t* keys, std::size_t n, std::uint64_t* row_start) {
    const std::size_t v = thread_index();
    if (v <= vertices) row_start[v] = v == vertices ? n : lower_bound(keys, 0, n, std::uint64_t{v} << 32);
}

// One thread per update: the value of its key where the key is (binary search), counted.
__global__ void set_values_kernel(std::size_t n, const std::uint64_t* batch_keys, const float* batch_values, const std::uint64_t* keys,
                           std::size_t edges, float* values, unsigned* found) {
    const std::size_t i = thread_index();
    if (i >= n) return;
    const std::size_t at = lower_bound(keys, 0, edges, batch_keys[i]);
    if (at < edges && keys[at] == batch_keys[i]) {
        values[at] = batch_values[i];
        atomicAdd(found, 1U);
    }
}

}  // namespace

struct GpuRebuildCsr::State {
    Vertex vertices;
    std::size_t edges = 0;
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> values;
    DeviceBuffer<std::uint64_t> row_start;
    DeviceArena arena;
    spikeminer::detail::DeviceStream owned_stream;
    cudaStream_t stream = owned_stream.get();

    template <typename T>
    T* take(std::size_t n) { return arena.take<T>(n, "GPU rebuild scratch"); }

    // The whole edge list with the batch appended, sorted, filtered, and the row index.
    std::size_t rebuild(const SortedBatch& b, std::size_t unique, bool erasing) {
        const std::size_t n = edges + unique;
        if (n > static_cast<std::size_t>(INT_MAX)) throw Error("GPU rebuild: at most 2^31 - 1 edges and updates");
        auto* all = take<std::uint64_t>(n);
        auto* origin = take<std::uint32_t>(n);
        if (edges != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(all, keys.get(), edges * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, stream));
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(all + edges, b.keys, unique * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, stream));
        iota_kernel<<<grid(n), kThreads, 0, stream>>>(n, origin);
        auto* sorted = take<std::uint64_t>(n);
        auto* sorted_origin = take<std::uint32_t>(n);
        const int end_bit = 32 + std::max(1, static_cast<int>(std::bit_width(vertices == 0 ? 0U : vertices - 1)));
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceRadixSort::SortPairs(t, bytes, all, sorted, origin, sorted_origin, static_cast<int>(n), 0, end_bit, stream);
        });
        auto* keep = take<unsigned char>(n);
        keep_after_sort_kernel<<<grid(n), kThreads, 0, stream>>>(n, sorted, sorted_origin, edges, erasing, keep);
        // Values by origin: the old values, then the batch's.
        auto* old_values = take<float>(n);
        if (edges != 0) SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(old_values, values.get(), edges * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(old_values + edges, b.values, unique * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        auto* kept_origin = take<std::uint32_t>(n);
        auto* count = take<unsigned long long>(1);
        if (keys.size() < n) {  // both allocated before either is replaced
            auto more_keys = allocate_or_oom<std::uint64_t>(std::max(n, 2 * keys.size()), "GPU rebuild edges");
            auto more_values = allocate_or_oom<float>(more_keys.size(), "GPU rebuild edges");
            SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old arrays were copied above
            keys = std::move(more_keys);
            values = std::move(more_values);
        }
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::Flagged(t, bytes, sorted, keep, keys.get(), count, static_cast<int>(n), stream);
        });
        run_cub_queued(arena, [&](void* t, std::size_t& bytes) {
            return cub::DeviceSelect::Flagged(t, bytes, sorted_origin, keep, kept_origin, count, static_cast<int>(n), stream);
        });
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        const std::size_t kept = spikeminer::detail::read_one(count, stream);
        gather_kernel<<<grid(kept), kThreads, 0, stream>>>(kept, kept_origin, old_values, values.get());
        row_starts_kernel<<<grid(static_cast<std::size_t>(vertices) + 1), kThreads, 0, stream>>>(vertices, keys.get(), kept, row_start.get());
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream));
        return kept;
    }

    template <typename Edge>
    BatchResult change(const Edge* batch, std::size_t size, bool erasing) {
        const SortedBatch b = detail::gpu::sorted_unique_batch(batch, size, nullptr, vertices, arena, stream);
        const std::size_t unique = detail::gpu::read_unique(b, vertices, stream);
        BatchResult result;
        if (unique == 0) return result;
        const std::size_t before = edges;
        edges = rebuild(b, unique, erasing);
        result.applied = erasing ? before - edges : edges - before;
        result.ignored = unique - result.applied;
        return result;
    }

    BatchResult update(const EdgeUpdate* batch, std::size_t size) {
        const SortedBatch b = detail::gpu::sorted_unique_batch(batch, size, nullptr, vertices, arena, stream);
        const std::size_t unique = detail::gpu::read_unique(b, vertices, stream);
        BatchResult result;
        if (unique == 0) return result;
        auto* found = take<unsigned>(1);
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(found, 0, sizeof(unsigned), stream));
        set_values_kernel<<<grid(unique), kThreads, 0, stream>>>(unique, b.keys, b.values, keys.get(), edges, values.get(), found);
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        result.applied = spikeminer::detail::read_one(found, stream);
        result.ignored = unique - result.applied;
        return result;
    }
};

GpuRebuildCsr::GpuRebuildCsr(Vertex vertices) : state_((check_vertex_count(vertices), std::make_unique<State>())) {
    State& s = *state_;
    s.vertices = vertices;
    s.row_start = allocate_or_oom<std::uint64_t>(static_cast<std::size_t>(vertices) + 1, "GPU rebuild row starts");
    SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(s.row_start.get(), 0, s.row_start.size() * sizeof(std::uint64_t), s.stream));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
}

GpuRebuildCsr::~GpuRebuildCsr() = default;

// Each call starts a fresh arena: the previous call waited for its stream before returning.
BatchResult GpuRebuildCsr::insert_edges(std::span<const EdgeUpdate> batch) {
    State& s = *state_;
    s.arena.reset();
    return s.change(detail::gpu::upload_batch(batch.data(), batch.size(), s.arena, s.stream), batch.size(), false);
}
BatchResult GpuRebuildCsr::erase_edges(std::span<const EdgeRef> batch) {
    State& s = *state_;
    s.arena.reset();
    return s.change(detail::gpu::upload_batch(batch.data(), batch.size(), s.arena, s.stream), batch.size(), true);
}
BatchResult GpuRebuildCsr::update_values(std::span<const EdgeUpdate> batch) {
    State& s = *state_;
    s.arena.reset();
    return s.update(detail::gpu::upload_batch(batch.data(), batch.size(), s.arena, s.stream), batch.size());
}
BatchResult GpuRebuildCsr::insert_edges_device(const EdgeUpdate* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->change(batch, n, false);
}
BatchResult GpuRebuildCsr::erase_edges_device(const EdgeRef* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->change(batch, n, true);
}
BatchResult GpuRebuildCsr::update_values_device(const EdgeUpdate* batch, std::size_t n) {
    spikeminer::detail::wait_for_legacy_stream();
    state_->arena.reset();
    return state_->update(batch, n);
}

WeightedCsr GpuRebuildCsr::to_csr() const {
    const State& s = *state_;
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    const std::vector<std::uint64_t> keys = download(s.keys.get(), s.edges);
    WeightedCsr csr;
    csr.values = download(s.values.get(), s.edges);
    csr.offsets = download(s.row_start.get(), static_cast<std::size_t>(s.vertices) + 1);
    for (const std::uint64_t key : keys) csr.targets.push_back(key_dst(key));
    return csr;
}

GpmaView GpuRebuildCsr::view() const {
    const State& s = *state_;
    return {s.keys.get(), s.values.get(), s.row_start.get(), s.vertices, s.edges};
}

Vertex GpuRebuildCsr::num_vertices() const { return state_->vertices; }
std::size_t GpuRebuildCsr::num_edges() const { return state_->edges; }

}  // namespace spikeminer::graph
