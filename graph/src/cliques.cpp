// enumerate_maximal_cliques: which engine runs, and the GPU's fallback to the CPU.
#include "clique_engines.hpp"

#include "spikeminer/core/error.hpp"

#include <atomic>
#include <mutex>
#include <optional>

namespace spikeminer::graph {
namespace {

// How the cliques leave the engine: counted only, in batches, or one at a time (through
// one lock, OneAtATime below).
enum class Listing { None, Batches, OneByOne };

// Auto's reason to keep a graph on the CPU, if it has one (see CliqueOptions::backend).
std::string cpu_quicker(std::size_t edges, Listing listing) {
    if (edges < kGpuEdges) {
        return std::to_string(edges) + " edges < " + std::to_string(kGpuEdges) + ", where the CPU finishes before a GPU starts";
    }
    if (listing == Listing::OneByOne) return "cliques one at a time through one lock, where the CPU's threads hand them over sooner";
    return {};
}

CliqueSummary on_cpu(const Graph& graph, const CliqueOptions& options, const CliqueBatchSink& sink) {
    const DegeneracyOrder order = degeneracy_order(graph);
    CliqueSummary summary = detail::enumerate_on_cpu(graph, order, options, sink);
    summary.degeneracy = order.degeneracy;
    summary.backend = Backend::Cpu;
    return summary;
}

// The engine the options and the graph's size choose; the GPU's out of memory falls back
// to the CPU on `to_host()`'s graph while no clique has reached the sink.
CliqueSummary enumerate(const detail::CliqueInput& graph, std::size_t edges, const std::function<const Graph&()>& to_host,
                        const CliqueOptions& options, const CliqueBatchSink& sink, Listing listing) {
    BackendChoice choice = choose_backend(options.backend, cpu_quicker(edges, sink ? listing : Listing::None));
    const auto on_gpu = [&]() -> CliqueSummary {
#ifdef SPIKEMINER_HAVE_CUDA
        std::atomic<std::uint64_t> delivered{0};
        const CliqueBatchSink counted = sink ? CliqueBatchSink([&](const CliqueBatch& batch) {
            delivered += batch.size();
            sink(batch);
        })
                                             : CliqueBatchSink{};
        try {
            return detail::enumerate_on_gpu(graph, options, counted);
        } catch (const GpuOutOfMemory& oom) {
            if (delivered == 0) throw;
            throw Error(std::string("the GPU ran out of memory (") + oom.what() + ") after " + std::to_string(delivered.load()) +
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

// A per-clique sink's contract (one call at a time, none after one has failed) on top of
// the engines' batches, which arrive from several threads at once.
class OneAtATime {
public:
    explicit OneAtATime(const CliqueSink& sink) : sink_(sink) {}

    [[nodiscard]] CliqueBatchSink batches() {
        if (!sink_) return {};
        return [this](const CliqueBatch& batch) {
            const std::lock_guard lock(mutex_);
            if (failed_) return;
            try {
                for (std::size_t i = 0; i < batch.size(); ++i) sink_(batch[i]);
            } catch (...) {
                failed_ = true;
                throw;
            }
        };
    }

private:
    const CliqueSink& sink_;
    std::mutex mutex_;
    bool failed_ = false;
};

}  // namespace

CliqueSummary enumerate_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink) {
    OneAtATime serialized(sink);
    return enumerate({&graph, nullptr}, graph.num_edges(), [&]() -> const Graph& { return graph; }, options, serialized.batches(),
                     Listing::OneByOne);
}

CliqueSummary list_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueBatchSink& sink) {
    return enumerate({&graph, nullptr}, graph.num_edges(), [&]() -> const Graph& { return graph; }, options, sink, Listing::Batches);
}

CliqueSummary enumerate_maximal_cliques(const GpmaView& graph, std::size_t edges, const std::function<Graph()>& to_host,
                                        const CliqueOptions& options, const CliqueSink& sink) {
    std::optional<Graph> copy;
    OneAtATime serialized(sink);
    return enumerate({nullptr, &graph}, edges, [&]() -> const Graph& { return copy.emplace(to_host()); }, options, serialized.batches(),
                     Listing::OneByOne);
}

}  // namespace spikeminer::graph
