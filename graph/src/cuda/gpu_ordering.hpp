// The graph on one CUDA device, relabelled by a degeneracy ordering (vertex id =
// position in the order, neighbour lists sorted), and the clique search's work items.
#pragma once

#include "device_buffer.hpp"

#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

#include <cuda_runtime_api.h>

#include <vector>

namespace spikeminer::graph::detail::gpu {

/// A graph's adjacency lists on the device in compressed sparse rows, owned.
struct DeviceCsr {
    spikeminer::detail::DeviceBuffer<unsigned long long> offsets;  // n + 1
    spikeminer::detail::DeviceBuffer<Vertex> neighbors;            // 2m
    Vertex vertices = 0;
    std::size_t entries = 0;                                       // 2m
    std::size_t max_degree = 0;
};

/// `graph`'s lists on the device, as they are.
DeviceCsr upload_graph(const Graph& graph, cudaStream_t stream);

/// A compact copy of the lists of a graph on the device (GPMA+'s view: its gaps dropped),
/// made there (src/cuda/gpma_compact.cu). The view must hold both directions of every
/// edge, each list sorted, and stay unchanged until the work queued on `stream` is done.
DeviceCsr compact_on_device(const GpmaView& view, cudaStream_t stream);

/// `graph` relabelled on the device by `position` (position[v] = v's place in a
/// degeneracy order), or, when `position` is empty, by a degeneracy order found there by
/// k-core peeling, which is then stored into `position` when `read_back` (the copy waits
/// for the device; a count on one device needs no order on the host).
DeviceCsr relabel_on_device(const DeviceCsr& graph, std::vector<Vertex>& position, bool read_back, cudaStream_t stream);

struct DeviceItems {
    spikeminer::detail::DeviceBuffer<Vertex> first;
    spikeminer::detail::DeviceBuffer<Vertex> second;  // kNoVertex for L1 items
    unsigned count = 0;
    unsigned max_later = 0;  // the most later neighbours of any vertex (the degeneracy, for a peeled order)
};

/// The independent subtrees, those of vertices with most later neighbours first: L1 one
/// per vertex; L2 one per edge (v, u), v < u, for a vertex v with at least `l2_from`
/// later neighbours, and one per vertex for the others.
DeviceItems make_items(const DeviceCsr& graph, SubtreeLevel level, std::size_t l2_from, cudaStream_t stream);

}  // namespace spikeminer::graph::detail::gpu
