// See window_graph.hpp.
#include "spikeminer/app/window_graph.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/adjacency_sets.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#if SPIKEMINER_HAVE_CUDA
#include "spikeminer/graph/gpu_analytics.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/sharded_graph.hpp"

#include <optional>
#endif

namespace spikeminer::app {

GraphStructure parse_structure(const std::string& name) {
    if (name == "pma") return GraphStructure::Pma;
    if (name == "sets") return GraphStructure::Sets;
    throw UsageError("unknown graph structure '" + name + "': choose pma or sets");
}

struct WindowGraph::Structure {
    virtual ~Structure() = default;
    virtual void apply(const WindowBatches& batches) = 0;
    [[nodiscard]] virtual std::size_t num_edges() const = 0;
    [[nodiscard]] virtual std::vector<std::uint32_t> bfs_levels(graph::Vertex root) const = 0;
    [[nodiscard]] virtual std::vector<graph::Vertex> components() const = 0;
    [[nodiscard]] virtual graph::PageRankResult pagerank() const = 0;
    [[nodiscard]] virtual graph::WeightedCsr to_csr() const = 0;
    virtual graph::CliqueSummary maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const = 0;
    [[nodiscard]] virtual std::string describe() const = 0;
};

namespace {

// The undirected graph of a compact copy (each edge once, from its lower end).
graph::Graph host_graph(const graph::WeightedCsr& csr) {
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    for (graph::Vertex v = 0; v < csr.num_vertices(); ++v) {
        csr.for_each_neighbor(v, [&](graph::Vertex t, float) {
            if (v < t) edges.emplace_back(v, t);
        });
    }
    return graph::Graph::from_edges(csr.num_vertices(), edges);
}

// A CPU structure, read in place by the CPU analytics.
template <typename Dynamic>
class OnCpu final : public WindowGraph::Structure {
public:
    OnCpu(graph::Vertex vertices, std::string name) : graph_(vertices), name_(std::move(name)) {}
    void apply(const WindowBatches& batches) override { app::apply(graph_, batches); }
    [[nodiscard]] std::size_t num_edges() const override { return graph_.num_edges(); }
    [[nodiscard]] std::vector<std::uint32_t> bfs_levels(graph::Vertex root) const override { return graph::bfs_levels(graph_, root); }
    [[nodiscard]] std::vector<graph::Vertex> components() const override { return graph::connected_components(graph_); }
    [[nodiscard]] graph::PageRankResult pagerank() const override { return graph::pagerank(graph_); }
    [[nodiscard]] graph::WeightedCsr to_csr() const override { return graph_.to_csr(); }
    graph::CliqueSummary maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const override {
        return graph::enumerate_maximal_cliques(host_graph(graph_.to_csr()), options, sink);
    }
    [[nodiscard]] std::string describe() const override { return name_; }

private:
    Dynamic graph_;
    std::string name_;
};

#if SPIKEMINER_HAVE_CUDA
// GPMA+, read in place by the GPU analytics.
class OnGpu final : public WindowGraph::Structure {
public:
    explicit OnGpu(graph::Vertex vertices) : graph_(vertices) {}
    void apply(const WindowBatches& batches) override { app::apply(graph_, batches); }
    [[nodiscard]] std::size_t num_edges() const override { return graph_.num_edges(); }
    [[nodiscard]] std::vector<std::uint32_t> bfs_levels(graph::Vertex root) const override {
        return graph::bfs_levels_gpu(graph_.view(), root);
    }
    [[nodiscard]] std::vector<graph::Vertex> components() const override { return graph::connected_components_gpu(graph_.view()); }
    [[nodiscard]] graph::PageRankResult pagerank() const override { return graph::pagerank_gpu(graph_.view()); }
    [[nodiscard]] graph::WeightedCsr to_csr() const override { return graph_.to_csr(); }
    graph::CliqueSummary maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const override {
        return graph::enumerate_maximal_cliques(graph_.view(), graph_.num_edges() / 2, [&] { return host_graph(graph_.to_csr()); }, options,
                                                sink);
    }
    [[nodiscard]] std::string describe() const override { return "GPMA+ on the GPU"; }

private:
    graph::GpuPma graph_;
};

// GPMA+ cut by source over several GPUs, cut where the first batch's edges balance; the
// analytics and cliques read a compact copy on the host.
class OnGpus final : public WindowGraph::Structure {
public:
    OnGpus(graph::Vertex vertices, std::vector<int> devices) : vertices_(vertices), devices_(std::move(devices)) {}
    void apply(const WindowBatches& batches) override {
        if (!graph_) graph_.emplace(vertices_, devices_, graph::balanced_cuts(vertices_, devices_.size(), batches.insert));
        app::apply(*graph_, batches);
    }
    [[nodiscard]] std::size_t num_edges() const override { return graph_ ? graph_->num_edges() : 0; }
    [[nodiscard]] std::vector<std::uint32_t> bfs_levels(graph::Vertex root) const override { return graph::bfs_levels(to_csr(), root); }
    [[nodiscard]] std::vector<graph::Vertex> components() const override { return graph::connected_components(to_csr()); }
    [[nodiscard]] graph::PageRankResult pagerank() const override { return graph::pagerank(to_csr()); }
    [[nodiscard]] graph::WeightedCsr to_csr() const override {
        if (graph_) return graph_->to_csr();
        graph::WeightedCsr empty;
        empty.offsets.assign(static_cast<std::size_t>(vertices_) + 1, 0);
        return empty;
    }
    graph::CliqueSummary maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const override {
        return graph::enumerate_maximal_cliques(host_graph(to_csr()), options, sink);
    }
    [[nodiscard]] std::string describe() const override {
        return "GPMA+ over " + std::to_string(devices_.size()) + " GPUs (analytics on a host copy)";
    }

private:
    graph::Vertex vertices_;
    std::vector<int> devices_;
    std::optional<graph::ShardedGraph<graph::GpuPma>> graph_;  // made at the first batch
};
#endif

}  // namespace

WindowGraph::WindowGraph(graph::Vertex vertices, GraphStructure structure, Backend backend, std::vector<int> devices) {
    if (devices.size() > 1 && (structure != GraphStructure::Pma || backend != Backend::Cuda)) {
        throw UsageError("a graph shared over several GPUs is GPMA+ on the GPU backend");
    }
    if (structure == GraphStructure::Sets) {
        if (backend == Backend::Cuda) throw UsageError("adjacency sets run on the CPU only");
        structure_ = std::make_unique<OnCpu<graph::AdjacencySets>>(vertices, "adjacency sets on the CPU");
        return;
    }
    if (backend == Backend::Cuda) {
#if SPIKEMINER_HAVE_CUDA
        if (devices.size() > 1) {
            structure_ = std::make_unique<OnGpus>(vertices, std::move(devices));
        } else {
            if (!devices.empty()) use_device(devices.front());
            structure_ = std::make_unique<OnGpu>(vertices);
        }
        return;
#else
        throw Error("this build has no GPU engines");
#endif
    }
    structure_ = std::make_unique<OnCpu<graph::CpuPma>>(vertices, "packed memory array on the CPU");
}

WindowGraph::~WindowGraph() = default;
WindowGraph::WindowGraph(WindowGraph&&) noexcept = default;
WindowGraph& WindowGraph::operator=(WindowGraph&&) noexcept = default;

void WindowGraph::apply(const WindowBatches& batches) { structure_->apply(batches); }
std::size_t WindowGraph::num_edges() const { return structure_->num_edges(); }
std::vector<std::uint32_t> WindowGraph::bfs_levels(graph::Vertex root) const { return structure_->bfs_levels(root); }
std::vector<graph::Vertex> WindowGraph::components() const { return structure_->components(); }
graph::PageRankResult WindowGraph::pagerank() const { return structure_->pagerank(); }
graph::WeightedCsr WindowGraph::to_csr() const { return structure_->to_csr(); }
graph::CliqueSummary WindowGraph::maximal_cliques(const graph::CliqueOptions& options, const graph::CliqueSink& sink) const {
    return structure_->maximal_cliques(options, sink);
}
std::string WindowGraph::describe() const { return structure_->describe(); }

}  // namespace spikeminer::app
