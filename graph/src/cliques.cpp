// enumerate_maximal_cliques: which engine runs, and the GPU's fallback to the CPU.
#include "clique_engines.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer::graph {

CliqueSummary enumerate_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink) {
    std::string reason;
    const Backend backend = resolve_backend(options.backend, &reason);
    std::string note;
    if (backend == Backend::Cuda) {
#ifdef SPIKEMINER_HAVE_CUDA
        if (options.backend == Backend::Auto && graph.num_edges() < kGpuEdges) {
            note = "auto: " + std::to_string(graph.num_edges()) + " edges < " + std::to_string(kGpuEdges) +
                   ", the CPU is quicker than starting the GPU";
        } else if (options.backend == Backend::Auto && sink) {
            note = "auto: listing, which the CPU's threads do faster than the GPU's one draining thread";
        }
        if (note.empty()) {
            // The CPU can take over only while no clique has reached the sink.
            std::uint64_t delivered = 0;
            const CliqueSink counted = sink ? CliqueSink([&](std::span<const Vertex> c) {
                ++delivered;
                sink(c);
            })
                                            : CliqueSink{};
            try {
                return detail::enumerate_on_gpu(graph, options, counted);
            } catch (const GpuOutOfMemory& oom) {
                if (delivered != 0) {
                    throw Error(std::string("GPU out of memory (") + oom.what() + ") after " + std::to_string(delivered) +
                                " cliques were delivered; run again with --backend cpu");
                }
                note = std::string("GPU out of memory (") + oom.what() + "): enumerated on the CPU instead";
            }
        }
#endif
    } else if (options.backend == Backend::Auto) {
        note = "auto: " + reason;
    }
    const DegeneracyOrder order = degeneracy_order(graph);
    CliqueSummary summary = detail::enumerate_on_cpu(graph, order, options, sink);
    summary.degeneracy = order.degeneracy;
    summary.backend = Backend::Cpu;
    summary.note = note;
    return summary;
}

}  // namespace spikeminer::graph
