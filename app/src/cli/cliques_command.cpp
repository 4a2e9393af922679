// `spikeminer cliques GRAPH`: maximal cliques of an undirected graph (neuron assemblies
// in a co-firing graph).
#include "commands.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace spikeminer::cli {
namespace {

struct CliquesArguments {
    std::string file;
    std::size_t min_size = 1;
    bool count_only = false;
    bool histogram = false;
    std::string output;
    std::string backend = "auto";
    unsigned threads = 0;
    std::uint64_t limit = 0;
    std::string level = "l2";
    std::string induced = "auto";
    bool no_worker_list = false;
    std::vector<int> devices;
    unsigned lanes = 0;
    std::string graph_out;
};

// Text formatted on the threads that deliver the cliques, each into its own buffer, and
// written a few MiB at a time: few, large writes under the one lock (a batch's text is
// tens of KiB), the rest of each buffer at the end.
class BufferedLines {
public:
    explicit BufferedLines(std::ostream& file) : file_(file) {}

    /// The calling thread's buffer, to append lines to and then hand to written().
    std::string& buffer() {
        const std::lock_guard lock(buffers_mutex_);
        return buffers_[std::this_thread::get_id()];
    }

    /// Writes the buffer once it holds enough.
    void written(std::string& text) {
        if (text.size() < kWriteBytes) return;
        const std::lock_guard lock(file_mutex_);
        file_.write(text.data(), static_cast<std::streamsize>(text.size()));
        text.clear();
    }

    /// Writes what every buffer still holds; after the last batch.
    void finish() {
        for (auto& [thread, text] : buffers_) file_.write(text.data(), static_cast<std::streamsize>(text.size()));
        buffers_.clear();
    }

private:
    static constexpr std::size_t kWriteBytes = std::size_t{4} << 20;
    std::ostream& file_;
    std::mutex buffers_mutex_;
    std::unordered_map<std::thread::id, std::string> buffers_;  // node-based: a thread's buffer stays put
    std::mutex file_mutex_;
};

graph::SubtreeLevel parse_level(const std::string& name) {
    if (name == "l1") return graph::SubtreeLevel::L1;
    if (name == "l2") return graph::SubtreeLevel::L2;
    throw UsageError("unknown --level '" + name + "': choose l1 or l2");
}

graph::InducedSubgraph parse_induced(const std::string& name) {
    if (name == "auto") return graph::InducedSubgraph::Auto;
    if (name == "ip") return graph::InducedSubgraph::Partial;
    if (name == "ipx") return graph::InducedSubgraph::Full;
    throw UsageError("unknown --induced '" + name + "': choose auto, ip or ipx");
}

// The graph on the vertices `ids` (ascending) alone, vertex i standing for ids[i].
graph::Graph named_only(const graph::Graph& graph, const std::vector<graph::Vertex>& ids) {
    std::vector<graph::Vertex> index(graph.num_vertices(), 0);
    for (std::size_t i = 0; i < ids.size(); ++i) index[ids[i]] = static_cast<graph::Vertex>(i);
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    for (const graph::Vertex v : ids) {
        for (const graph::Vertex u : graph.neighbors(v)) {
            if (v < u) edges.emplace_back(index[v], index[u]);
        }
    }
    return graph::Graph::from_edges(static_cast<graph::Vertex>(ids.size()), edges);
}

void run_cliques(const CliquesArguments& args) {
    if (args.count_only && !args.output.empty()) throw UsageError("cliques: --count-only writes no file; drop -o or --count-only");
    io::OutputSet outputs({args.output, args.graph_out}, {args.file}, interrupt_token());
    const io::EdgeListGraph input = io::read_graph(args.file);
    if (!args.graph_out.empty()) io::write_graph_h5(args.graph_out, input.graph);
    // The vertices an edge list names: the ids between them that no line names would each
    // count as a clique of one vertex. They are searched renumbered, and reported by id.
    const std::vector<graph::Vertex>& ids = input.named;
    const bool renumbered = !ids.empty() && ids.size() < input.graph.num_vertices();
    const graph::Graph searched = renumbered ? named_only(input.graph, ids) : graph::Graph{};
    const graph::Graph& graph = renumbered ? searched : input.graph;
    std::fprintf(stderr, "%s: %u vertices, %zu edges (%zu self loops and %zu repeated edges dropped)\n", args.file.c_str(),
                 graph.num_vertices(), graph.num_edges(), input.cleanup.self_loops, input.cleanup.duplicates);
    TerminalProgress terminal;
    graph::CliqueOptions options;
    options.min_size = args.min_size;
    options.limit = args.limit;
    options.threads = args.threads;
    options.backend = parse_backend(args.backend);
    options.gpu.level = parse_level(args.level);
    options.gpu.induced = parse_induced(args.induced);
    options.gpu.worker_list = !args.no_worker_list;
    options.gpu.devices = args.devices;
    options.gpu.lanes = args.lanes;
    options.progress = &terminal.progress();

    graph::CliqueSummary summary;
    const auto start = std::chrono::steady_clock::now();
    if (args.output.empty()) {
        summary = graph::enumerate_maximal_cliques(graph, options);
    } else {
        io::write_atomically(args.output, [&](std::ostream& file) {
            BufferedLines lines(file);
            summary = graph::list_maximal_cliques(graph, options, [&](const graph::CliqueBatch& batch) {
                // Formatted on the delivering thread, without the stream's per-number overhead.
                std::string& text = lines.buffer();
                char digits[16];
                for (std::size_t c = 0; c < batch.size(); ++c) {
                    const std::span<const graph::Vertex> clique = batch[c];
                    for (std::size_t i = 0; i < clique.size(); ++i) {
                        if (i != 0) text.push_back(' ');
                        const graph::Vertex id = renumbered ? ids[clique[i]] : clique[i];  // ascending either way
                        text.append(digits, std::to_chars(digits, digits + sizeof digits, id).ptr);
                    }
                    text.push_back('\n');
                }
                lines.written(text);
            });
            lines.finish();
        });
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outputs.commit();
    if (!summary.note.empty()) std::fprintf(stderr, "%s\n", summary.note.c_str());
    std::printf("%llu maximal cliques%s%s (%s, degeneracy %zu, %.3f s)\n", static_cast<unsigned long long>(summary.count),
                args.min_size > 1 ? (" of at least " + std::to_string(args.min_size) + " vertices").c_str() : "",
                summary.stopped_at_limit ? ", stopped at --limit" : "", backend_name(summary.backend).c_str(), summary.degeneracy,
                seconds);
    if (args.histogram) {
        std::printf("%6s %14s\n", "size", "cliques");
        for (std::size_t k = 0; k < summary.by_size.size(); ++k) {
            if (summary.by_size[k] != 0) std::printf("%6zu %14llu\n", k, static_cast<unsigned long long>(summary.by_size[k]));
        }
    }
    if (!args.output.empty()) std::printf("wrote %s\n", args.output.c_str());
    if (!args.graph_out.empty()) std::printf("wrote %s\n", args.graph_out.c_str());
}

}  // namespace

void add_cliques_command(CLI::App& app) {
    auto args = std::make_shared<CliquesArguments>();
    CLI::App* command = app.add_subcommand("cliques", "Enumerate the maximal cliques of an undirected graph");
    command->add_option("GRAPH", args->file,
                        "edge list ('u v' per line, # or % comments, plain or .gz) or spikeminer HDF5 graph (/graph)")
        ->required();
    command->add_option("--graph-out", args->graph_out, "also write the cleaned graph as a spikeminer HDF5 graph file");
    command->add_option("--min-size", args->min_size, "only cliques of at least this many vertices");
    command->add_flag("--count-only", args->count_only, "count, do not list");
    command->add_flag("--histogram", args->histogram, "print the number of cliques of each size");
    command->add_option("-o,--output", args->output, "write the cliques, one per line as sorted vertex ids");
    command->add_option("--backend", args->backend, "auto, cpu or gpu (auto: the GPU for counts and histograms of graphs of " +
                                                std::to_string(graph::kGpuEdges) + " edges or more)");
    command->add_option("--threads", args->threads, "CPU threads (default: all)");
    command->add_option("--limit", args->limit, "stop after this many cliques (default 0: no limit)");
    command->add_option("--level", args->level, "GPU work items: l2 (one per edge, the default) or l1 (one per vertex)");
    command->add_option("--induced", args->induced, "GPU subgraph bitsets: ip (candidates only), ipx (with excluded), auto");
    command->add_flag("--no-worker-list", args->no_worker_list, "GPU: no handing of branches to idle workers");
    command->add_option("--devices", args->devices, "GPU devices to share the work over, e.g. 0,1")->delimiter(',')->allow_extra_args(false);
    command->add_option("--lanes", args->lanes, "GPU lanes per worker: 4, 8, 16 or 32 (default: from the degeneracy)")
        ->check(CLI::IsMember({0U, 4U, 8U, 16U, 32U}));
    command->callback([args] { run_cliques(*args); });
}

}  // namespace spikeminer::cli
