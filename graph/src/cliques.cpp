// enumerate_maximal_cliques: which engine runs, and the GPU's fallback to the CPU.
#include "clique_engines.hpp"

#include "spikeminer/core/error.hpp"

#include <optional>

namespace spikeminer::graph {
namespace {

// Auto's reason to keep a graph on the CPU, if it has one (see CliqueOptions::backend).
std::string cpu_quicker(std::size_t edges, bool listing) {
    if (edges < kGpuEdges) {
        return std::to_string(edges) + " edges < " + std::to_string(kGpuEdges) + ", where the CPU finishes before a GPU starts";
    }
    if (listing) return "listing, which the CPU's threads do faster than the GPU's one draining thread";
    return {};
}

CliqueSummary on_cpu(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink) {
    const DegeneracyOrder order = degeneracy_order(graph);
    CliqueSummary summary = detail::enumerate_on_cpu(graph, order, options, sink);
    summary.degeneracy = order.degeneracy;
    summary.backend = Backend::Cpu;
    return summary;
}

// The engine the options and the graph's size choose; the GPU's out of memory falls back
// to the CPU on `to_host()`'s graph while no clique has reached the sink.
CliqueSummary enumerate(const detail::CliqueInput& graph, std::size_t edges, const std::function<const Graph&()>& to_host,
                        const CliqueOptions& options, const CliqueSink& sink) {
    BackendChoice choice = choose_backend(options.backend, cpu_quicker(edges, static_cast<bool>(sink)));
    const auto on_gpu = [&]() -> CliqueSummary {
#ifdef SPIKEMINER_HAVE_CUDA
        std::uint64_t delivered = 0;
        const CliqueSink counted = sink ? CliqueSink([&](std::span<const Vertex> c) {
            ++delivered;
            sink(c);
        })
                                        : CliqueSink{};
        try {
            return detail::enumerate_on_gpu(graph, options, counted);
        } catch (const GpuOutOfMemory& oom) {
            if (delivered == 0) throw;
            throw Error(std::string("the GPU ran out of memory (") + oom.what() + ") after " + std::to_string(delivered) +
                        " cliques were delivered; run again on the CPU");
        }
#else
        (void)graph;
        throw Error("this build has no GPU engines");
#endif
    };
    CliqueSummary summary = run_with_fallback(choice, on_gpu, [&] { return on_cpu(to_host(), options, sink); });
    if (!choice.note.empty()) summary.note = summary.note.empty() ? choice.note : choice.note + "; " + summary.note;
    return summary;
}

}  // namespace

CliqueSummary enumerate_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink) {
    return enumerate({&graph, nullptr}, graph.num_edges(), [&]() -> const Graph& { return graph; }, options, sink);
}

CliqueSummary enumerate_maximal_cliques(const GpmaView& graph, std::size_t edges, const std::function<Graph()>& to_host,
                                        const CliqueOptions& options, const CliqueSink& sink) {
    std::optional<Graph> copy;
    return enumerate({nullptr, &graph}, edges, [&]() -> const Graph& { return copy.emplace(to_host()); }, options, sink);
}

}  // namespace spikeminer::graph
