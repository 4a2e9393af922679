#pragma once
// BFS, connected components and PageRank on the GPU over a GpmaView: GPMA+ read in place
// (a CSR with gaps) or GpuRebuildCsr's compact CSR, with the same kernels. Same
// definitions and results as analytics.hpp (PageRank to within the floating-point order
// of its sums). Only in builds with CUDA.

#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

#include <vector>

namespace spikeminer::graph {

std::vector<std::uint32_t> bfs_levels_gpu(const GpmaView& graph, Vertex root);
std::vector<Vertex> connected_components_gpu(const GpmaView& graph);
PageRankResult pagerank_gpu(const GpmaView& graph, const PageRankOptions& options = {});

}  // namespace spikeminer::graph
