#pragma once
// BFS, connected components and PageRank on the GPU, reading GPMA+ in place (its view:
// a CSR with gaps). Same definitions and results as analytics.hpp (PageRank to within
// the floating-point order of its sums). Only in builds with CUDA.

#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

#include <vector>

namespace spikeminer::graph {

std::vector<std::uint32_t> bfs_levels_gpu(const GpuPma& graph, Vertex root);
std::vector<Vertex> connected_components_gpu(const GpuPma& graph);
PageRankResult pagerank_gpu(const GpuPma& graph, const PageRankOptions& options = {});

}  // namespace spikeminer::graph
