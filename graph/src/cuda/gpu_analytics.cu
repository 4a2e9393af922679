// Analytics kernels over a GpmaView (GPMA+ in place, or the rebuilt compact CSR): one
// thread per vertex walks its out-neighbours (gpma_view.cuh: the empty tail of each
// segment is never read).
#include "../tuning.hpp"
#include "device_arena.hpp"
#include "device_calls.cuh"

#include "spikeminer/graph/gpma_view.cuh"
#include "spikeminer/graph/gpu_analytics.hpp"

#include <cub/device/device_reduce.cuh>

namespace spikeminer::graph {
namespace {

using spikeminer::detail::blocks_for;
using spikeminer::detail::allocate_or_oom;

using tuning::kThreads;

unsigned grid(std::size_t n) { return blocks_for(n, kThreads); }

// Each out-neighbour t of v: f(t).
template <typename F>
__device__ void for_each_target(const GpmaView& g, Vertex v, F f) {
    for_each_neighbor(g, v, [&f](Vertex t, std::uint64_t) { f(t); });
}

// One thread per vertex: a vertex of the frontier (at `depth`) claims its unreached neighbours.
__global__ void bfs_step_kernel(GpmaView g, std::uint32_t depth, std::uint32_t* level, int* changed) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.vertices || level[v] != depth) return;
    for_each_target(g, v, [&](Vertex t) {
        if (level[t] == kUnreached && atomicCAS(&level[t], kUnreached, depth + 1) == kUnreached) *changed = 1;
    });
}

// One thread per vertex: its own label.
__global__ void init_labels_kernel(Vertex n, Vertex* label) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) label[v] = v;
}

// Each edge pulls both ends to the smaller label, in both directions (the undirected view).
__global__ void cc_step_kernel(GpmaView g, Vertex* label, int* changed) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.vertices) return;
    for_each_target(g, v, [&](Vertex t) {
        const Vertex a = label[v];
        const Vertex b = label[t];
        if (a < b && atomicMin(&label[t], a) > a) *changed = 1;
        if (b < a && atomicMin(&label[v], b) > b) *changed = 1;
    });
}

// One thread per vertex: its out-degree.
__global__ void out_degrees_kernel(GpmaView g, std::uint32_t* degree) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.vertices) return;
    degree[v] = graph::degree(g, v);
}

// One thread per vertex: its rank when it has no out-edge (summed afterwards), else 0.
__global__ void dangling_mass_kernel(Vertex n, const std::uint32_t* degree, const double* rank, double* dangling) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) dangling[v] = degree[v] == 0 ? rank[v] : 0.0;
}

// One thread per vertex: `value`.
__global__ void fill_kernel(Vertex n, double value, double* out) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) out[v] = value;
}

// One thread per vertex: its damped rank shared among its out-neighbours.
__global__ void push_rank_kernel(GpmaView g, double damping, const std::uint32_t* degree, const double* rank, double* next) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.vertices || degree[v] == 0) return;
    const double share = damping * rank[v] / degree[v];
    for_each_target(g, v, [&](Vertex t) { atomicAdd(&next[t], share); });
}

// One thread per vertex: how much its rank changed (summed afterwards).
__global__ void change_of_kernel(Vertex n, const double* a, const double* b, double* diff) {
    const Vertex v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) diff[v] = fabs(a[v] - b[v]);
}

// The sum of n values; its scratch comes from `arena` (reused: no allocation, and so no
// device-wide wait in cudaFree, once the arena has grown).
double sum(const double* values, Vertex n, spikeminer::detail::DeviceArena& arena) {
    arena.reset();
    auto* out = arena.take<double>(1, "PageRank");
    spikeminer::detail::run_cub_queued(arena, [&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, values, out, n); });
    return spikeminer::detail::read_one(out);
}

int read_and_clear(int* flag) {
    int host = 0;
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(&host, flag, sizeof host, cudaMemcpyDeviceToHost));
    SPIKEMINER_CUDA_CHECK(cudaMemset(flag, 0, sizeof host));
    return host;
}

}  // namespace

std::vector<std::uint32_t> bfs_levels_gpu(const GpmaView& g, Vertex root) {
    std::vector<std::uint32_t> level(g.vertices, kUnreached);
    if (root >= g.vertices) return level;
    level[root] = 0;
    auto d_level = spikeminer::detail::upload(level.data(), level.size(), "BFS", nullptr);
    auto changed = allocate_or_oom<int>(1, "BFS");
    SPIKEMINER_CUDA_CHECK(cudaMemset(changed.get(), 0, sizeof(int)));
    for (std::uint32_t depth = 0;; ++depth) {
        bfs_step_kernel<<<grid(g.vertices), kThreads>>>(g, depth, d_level.get(), changed.get());
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
        if (read_and_clear(changed.get()) == 0) break;
    }
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(level.data(), d_level.get(), level.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return level;
}

std::vector<Vertex> connected_components_gpu(const GpmaView& g) {
    auto label = allocate_or_oom<Vertex>(g.vertices, "components");
    auto changed = allocate_or_oom<int>(1, "components");
    SPIKEMINER_CUDA_CHECK(cudaMemset(changed.get(), 0, sizeof(int)));
    init_labels_kernel<<<grid(g.vertices), kThreads>>>(g.vertices, label.get());
    do {
        cc_step_kernel<<<grid(g.vertices), kThreads>>>(g, label.get(), changed.get());
        SPIKEMINER_CUDA_CHECK(cudaGetLastError());
    } while (read_and_clear(changed.get()) != 0);
    std::vector<Vertex> out(g.vertices);
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(out.data(), label.get(), out.size() * sizeof(Vertex), cudaMemcpyDeviceToHost));
    return out;
}

PageRankResult pagerank_gpu(const GpmaView& g, const PageRankOptions& options) {
    const Vertex n = g.vertices;
    PageRankResult result;
    if (n == 0) return result;
    auto degree = allocate_or_oom<std::uint32_t>(n, "PageRank");
    auto rank = allocate_or_oom<double>(n, "PageRank");
    auto next = allocate_or_oom<double>(n, "PageRank");
    auto scratch = allocate_or_oom<double>(n, "PageRank");
    spikeminer::detail::DeviceArena arena;
    out_degrees_kernel<<<grid(n), kThreads>>>(g, degree.get());
    fill_kernel<<<grid(n), kThreads>>>(n, 1.0 / n, rank.get());
    const unsigned limit = options.fixed_iterations > 0 ? options.fixed_iterations : options.max_iterations;
    while (result.iterations < limit) {
        dangling_mass_kernel<<<grid(n), kThreads>>>(n, degree.get(), rank.get(), scratch.get());
        const double dangling = sum(scratch.get(), n, arena);
        fill_kernel<<<grid(n), kThreads>>>(n, (1.0 - options.damping) / n + options.damping * dangling / n, next.get());
        push_rank_kernel<<<grid(n), kThreads>>>(g, options.damping, degree.get(), rank.get(), next.get());
        change_of_kernel<<<grid(n), kThreads>>>(n, next.get(), rank.get(), scratch.get());
        const double change = sum(scratch.get(), n, arena);
        std::swap(rank, next);
        ++result.iterations;
        if (options.fixed_iterations == 0 && change < options.tolerance) break;
    }
    result.rank.resize(n);
    SPIKEMINER_CUDA_CHECK(cudaMemcpy(result.rank.data(), rank.get(), n * sizeof(double), cudaMemcpyDeviceToHost));
    return result;
}

}  // namespace spikeminer::graph
