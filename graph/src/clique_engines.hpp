// The clique engines behind enumerate_maximal_cliques (src/cliques.cpp chooses).
#pragma once

#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/gpu_pma.hpp"

namespace spikeminer::graph::detail {

/// The GPU engine's graph: on the host, or already on the current device (GPMA+'s view).
struct CliqueInput {
    const Graph* on_host = nullptr;
    const GpmaView* on_device = nullptr;
    [[nodiscard]] Vertex vertices() const { return on_host != nullptr ? on_host->num_vertices() : on_device->vertices; }
};

/// The CPU search (src/cpu/maximal_cliques.cpp) over a degeneracy order of the graph.
CliqueSummary enumerate_on_cpu(const Graph& graph, const DegeneracyOrder& order, const CliqueOptions& options,
                               const CliqueBatchSink& sink);

#ifdef SPIKEMINER_HAVE_CUDA
/// The GPU search (src/cuda/gpu_cliques.cu) on options.gpu.devices (a graph on the device:
/// the current device alone), over a degeneracy order found by peeling on the first
/// device. Throws GpuOutOfMemory when a device cannot hold the graph and one block of
/// workers.
CliqueSummary enumerate_on_gpu(const CliqueInput& graph, const CliqueOptions& options, const CliqueBatchSink& sink);
#endif

}  // namespace spikeminer::graph::detail
