// The clique engines behind enumerate_maximal_cliques (src/cliques.cpp chooses).
#pragma once

#include "spikeminer/graph/cliques.hpp"

namespace spikeminer::graph::detail {

/// The CPU search (src/cpu/maximal_cliques.cpp) over a degeneracy order of the graph.
CliqueSummary enumerate_on_cpu(const Graph& graph, const DegeneracyOrder& order, const CliqueOptions& options,
                               const CliqueSink& sink);

#ifdef SPIKEMINER_HAVE_CUDA
/// The GPU search (src/cuda/gpu_cliques.cu) on options.gpu.devices, over a degeneracy
/// order found by peeling on the first device. Throws GpuOutOfMemory when a device
/// cannot hold the graph and one block of workers.
CliqueSummary enumerate_on_gpu(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink);
#endif

}  // namespace spikeminer::graph::detail
