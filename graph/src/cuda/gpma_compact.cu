// A compact CSR made on the device from GPMA+'s view, for the clique engine: the pipeline's
// window graphs reach the search without a copy through the host.
#include "../tuning.hpp"
#include "device_calls.cuh"
#include "gpu_ordering.hpp"

#include "spikeminer/graph/gpma_view.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

namespace spikeminer::graph::detail::gpu {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::check_launch;
using spikeminer::detail::read_one;
using spikeminer::detail::run_cub;

using tuning::kThreads;

// degree[v] for every vertex, and 0 at n (so that the scan's last entry is the total).
__global__ void view_degrees_kernel(GpmaView view, unsigned long long* degree) {
    const unsigned long long v = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (v < view.vertices) degree[v] = graph::degree(view, static_cast<Vertex>(v));
    if (v == view.vertices) degree[v] = 0;
}

// v's targets, in the view's (sorted) order, from offsets[v] on.
__global__ void view_lists_kernel(GpmaView view, const unsigned long long* offsets, Vertex* neighbors) {
    const unsigned long long v = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (v >= view.vertices) return;
    unsigned long long at = offsets[v];
    graph::for_each_neighbor(view, static_cast<Vertex>(v), [&](Vertex t, std::uint64_t) { neighbors[at++] = t; });
}

}  // namespace

DeviceCsr compact_on_device(const GpmaView& view, cudaStream_t stream) {
    DeviceCsr out;
    out.vertices = view.vertices;
    const std::size_t n = view.vertices;
    const unsigned grid = spikeminer::detail::blocks_for(n + 1, kThreads);
    auto degree = allocate_or_oom<unsigned long long>(n + 1, "compact graph", stream);
    view_degrees_kernel<<<grid, kThreads, 0, stream>>>(view, degree.get());
    check_launch();
    out.offsets = allocate_or_oom<unsigned long long>(n + 1, "graph offsets", stream);
    run_cub([&](void* temp, std::size_t& bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, degree.get(), out.offsets.get(), n + 1, stream); },
            stream);
    auto most = allocate_or_oom<unsigned long long>(1, "compact graph", stream);
    run_cub([&](void* temp, std::size_t& bytes) { return cub::DeviceReduce::Max(temp, bytes, degree.get(), most.get(), n + 1, stream); }, stream);
    out.entries = read_one(out.offsets.get() + n, stream);
    out.max_degree = read_one(most.get(), stream);
    out.neighbors = allocate_or_oom<Vertex>(out.entries, "graph neighbours", stream);
    view_lists_kernel<<<grid, kThreads, 0, stream>>>(view, out.offsets.get(), out.neighbors.get());
    check_launch();
    return out;
}

}  // namespace spikeminer::graph::detail::gpu
