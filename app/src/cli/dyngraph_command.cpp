// `spikeminer dyngraph STREAM`: a time window slides over a timestamped edge stream; the
// graph of the window is kept in a dynamic structure, updated in batches, and analysed
// after every slide (GPMA's setup, on the user's own stream). On the GPU the structure is
// GPMA+ and the analytics read it in place there; on the CPU, the packed memory array or
// the adjacency sets.
#include "commands.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/edge_stream.hpp"
#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/app/window_graph.hpp"
#include "spikeminer/graph/analytics.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

namespace spikeminer::cli {
namespace {

struct DyngraphArguments {
    std::string file;
    std::string columns = "src,dst";
    bool signed_weights = false;
    std::uint64_t vertices = 0;
    std::uint64_t window = 0;
    std::uint64_t batch = 1024;
    std::uint64_t max_steps = 0;
    std::string structure = "pma";
    std::string backend = "auto";
    std::vector<int> devices;
    std::string analytics;
    graph::Vertex root = 0;
    std::string output;
};

struct Analytics {
    bool bfs = false;
    bool cc = false;
    bool pagerank = false;
};

Analytics parse_analytics(const std::string& list) {
    Analytics a;
    std::stringstream names(list);
    std::string name;
    while (std::getline(names, name, ',')) {
        if (name == "bfs") a.bfs = true;
        else if (name == "cc") a.cc = true;
        else if (name == "pagerank") a.pagerank = true;
        else if (!name.empty()) throw UsageError("--analytics: unknown '" + name + "': choose from bfs, cc, pagerank");
    }
    return a;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One row of the per-step table.
struct Step {
    std::size_t edges = 0, inserted = 0, erased = 0, updated = 0;
    double update_s = 0, bfs_s = 0, cc_s = 0, pagerank_s = 0;
    std::size_t reached = 0, components = 0;
    unsigned iterations = 0;
};

Step analyse(const app::WindowGraph& g, const Analytics& a, graph::Vertex root, Step step) {
    step.edges = g.num_edges();
    if (a.bfs) {
        const auto start = std::chrono::steady_clock::now();
        const auto levels = g.bfs_levels(root);
        step.bfs_s = seconds_since(start);
        step.reached = static_cast<std::size_t>(std::count_if(levels.begin(), levels.end(), [](std::uint32_t l) { return l != graph::kUnreached; }));
    }
    if (a.cc) {
        const auto start = std::chrono::steady_clock::now();
        const auto labels = g.components();
        step.cc_s = seconds_since(start);
        // Each component is labelled with its smallest vertex: one label per component.
        graph::Vertex v = 0;
        step.components = static_cast<std::size_t>(std::count_if(labels.begin(), labels.end(), [&v](graph::Vertex l) { return l == v++; }));
    }
    if (a.pagerank) {
        const auto start = std::chrono::steady_clock::now();
        step.iterations = g.pagerank().iterations;
        step.pagerank_s = seconds_since(start);
    }
    return step;
}

std::vector<Step> run_window(app::WindowGraph& g, const io::EdgeStream& stream, const DyngraphArguments& args, const Analytics& a,
                             Progress& progress) {
    app::SlidingWindow window(stream.edges, args.window);
    g.apply(window.fill());
    const std::uint64_t total = (window.remaining() + args.batch - 1) / args.batch;
    const std::uint64_t steps = args.max_steps != 0 ? std::min(total, args.max_steps) : total;
    progress.begin("sliding the window", steps);
    std::vector<Step> rows;
    app::WindowBatches batches;
    for (std::uint64_t s = 0; s < steps && window.slide(args.batch, batches); ++s) {
        Step step;
        step.inserted = batches.insert.size();
        step.erased = batches.erase.size();
        step.updated = batches.update.size();
        const auto start = std::chrono::steady_clock::now();
        g.apply(batches);
        step.update_s = seconds_since(start);
        rows.push_back(analyse(g, a, args.root, step));
        progress.update(s + 1);
    }
    progress.finish();
    return rows;
}

void write_steps(const std::string& path, const std::vector<Step>& rows) {
    io::write_atomically(path, [&rows](std::ostream& out) {
        out << "step,edges,inserted,erased,updated,update_s,bfs_s,bfs_reached,cc_s,components,pagerank_s,pagerank_iterations\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Step& r = rows[i];
            out << i + 1 << ',' << r.edges << ',' << r.inserted << ',' << r.erased << ',' << r.updated << ',' << r.update_s << ','
                << r.bfs_s << ',' << r.reached << ',' << r.cc_s << ',' << r.components << ',' << r.pagerank_s << ','
                << r.iterations << '\n';
        }
    });
}

// GPMA+ is the GPU's packed memory array; the adjacency sets exist on the CPU only. Left
// to choose, the GPU takes windows of at least kGpuWindowEdges when analytics run after
// each slide or a slide takes at least 1,024 edges: below that the CPU is faster.
std::string cpu_quicker(const DyngraphArguments& run, const Analytics& analytics) {
    const bool any_analytics = analytics.bfs || analytics.cc || analytics.pagerank;
    if (run.window < app::kGpuWindowEdges) return "a window of " + std::to_string(run.window) + " edges, which the CPU updates faster";
    if (!any_analytics && run.batch < 1024) return "slides of " + std::to_string(run.batch) + " edges and no analytics, which the CPU does faster";
    return {};
}

void run_dyngraph(const DyngraphArguments& args) {
    if (args.batch == 0) throw UsageError("--batch must be at least 1");
    const app::GraphStructure structure = app::parse_structure(args.structure);
    Backend requested = parse_backend(args.backend);
    if (args.devices.size() > 1) {
        if (requested == Backend::Cpu || structure == app::GraphStructure::Sets) {
            throw UsageError("--devices shares GPMA+ over GPUs: it takes --structure pma and the gpu or auto backend");
        }
        requested = Backend::Cuda;
    }
    if (structure == app::GraphStructure::Sets && requested == Backend::Cuda) throw UsageError("--structure sets runs on the CPU only");
    const Analytics analytics = parse_analytics(args.analytics);
    io::EdgeStreamOptions options;
    options.columns = io::parse_stream_columns(args.columns);
    options.signed_weights = args.signed_weights;
    options.vertices = args.vertices;
    io::OutputSet outputs({args.output}, {args.file}, interrupt_token());
    io::EdgeStream stream = io::read_edge_stream(args.file, options);
    if (args.root >= stream.vertices) throw UsageError("--root " + std::to_string(args.root) + " is not a vertex of the stream");
    DyngraphArguments run = args;
    if (run.window == 0) run.window = stream.edges.size() / 2;
    BackendChoice choice = structure == app::GraphStructure::Sets ? BackendChoice{} : choose_backend(requested, cpu_quicker(run, analytics));
    std::fprintf(stderr, "%s: %zu edges over %u vertices%s; window %llu edges, batch %llu\n", args.file.c_str(),
                 stream.edges.size(), stream.vertices,
                 stream.out_of_order != 0 ? (", " + std::to_string(stream.out_of_order) + " lines out of time order (sorted)").c_str() : "",
                 static_cast<unsigned long long>(run.window), static_cast<unsigned long long>(run.batch));
    TerminalProgress terminal;
    std::string where;
    const auto on = [&](Backend backend) {
        app::WindowGraph g(stream.vertices, structure, backend, backend == Backend::Cuda ? args.devices : std::vector<int>{});
        where = g.describe();
        return run_window(g, stream, run, analytics, terminal.progress());
    };
    const std::vector<Step> rows =
        run_with_fallback(choice, [&] { return on(Backend::Cuda); }, [&] { return on(Backend::Cpu); });
    if (!choice.note.empty()) std::fprintf(stderr, "\nnote: %s\n", choice.note.c_str());
    Step sum;
    for (const Step& r : rows) {
        sum.inserted += r.inserted;
        sum.erased += r.erased;
        sum.updated += r.updated;
        sum.update_s += r.update_s;
        sum.bfs_s += r.bfs_s;
        sum.cc_s += r.cc_s;
        sum.pagerank_s += r.pagerank_s;
    }
    const double n = rows.empty() ? 1.0 : static_cast<double>(rows.size());
    const std::size_t updates = sum.inserted + sum.erased + sum.updated;
    std::printf("%zu slides of %llu stream edges, %s\n", rows.size(), static_cast<unsigned long long>(run.batch), where.c_str());
    std::printf("graph updates: %zu (%zu inserted, %zu erased, %zu values changed) in %.4f s: %.2f M/s, %.3f ms a slide\n", updates,
                sum.inserted, sum.erased, sum.updated, sum.update_s, sum.update_s > 0 ? static_cast<double>(updates) / sum.update_s / 1e6 : 0.0,
                1e3 * sum.update_s / n);
    const Step last = rows.empty() ? Step{} : rows.back();
    std::printf("edges in the last window: %zu\n", last.edges);
    if (analytics.bfs) std::printf("bfs from %u: %.3f ms a slide; %zu vertices reached at the end\n", args.root, 1e3 * sum.bfs_s / n, last.reached);
    if (analytics.cc) std::printf("components: %.3f ms a slide; %zu at the end\n", 1e3 * sum.cc_s / n, last.components);
    if (analytics.pagerank) std::printf("pagerank: %.3f ms a slide; %u iterations at the end\n", 1e3 * sum.pagerank_s / n, last.iterations);
    if (!args.output.empty()) {
        write_steps(args.output, rows);
        outputs.commit();
        std::printf("wrote %s\n", args.output.c_str());
    }
}

}  // namespace

void add_dyngraph_command(CLI::App& app) {
    auto args = std::make_shared<DyngraphArguments>();
    CLI::App* command = app.add_subcommand("dyngraph", "Slide a window over an edge stream, keeping its graph up to date");
    command->add_option("STREAM", args->file, "edge stream: 'src dst [weight] [time]' per line, # or % comments, plain or .gz")
        ->required();
    command->add_option("--columns", args->columns, "what each field is, e.g. src,dst,weight,time (_ skips one)");
    command->add_flag("--signed-weights", args->signed_weights, "allow negative weights");
    command->add_option("--vertices", args->vertices, "declared vertex count (default: largest id + 1)")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{0xfffffffe}, "at most 4294967294 vertices"));
    command->add_option("--window", args->window, "edges in the window (default: half the stream)");
    command->add_option("--batch", args->batch, "stream edges a slide drops and takes (default 1024)");
    command->add_option("--steps", args->max_steps, "stop after this many slides");
    command->add_option("--structure", args->structure,
                        "pma (packed memory array: GPMA+ on the GPU, or on the CPU) or sets (ordered adjacency sets, CPU only)");
    command->add_option("--backend", args->backend,
                        "auto (the GPU for windows of 100,000+ edges with analytics or batches of 1,024+), cpu or gpu");
    command->add_option("--devices", args->devices,
                        "GPUs to share GPMA+ over, each holding the out-edges of a range of vertices, e.g. 0,1 (analytics then "
                        "read a host copy)")
        ->delimiter(',')->allow_extra_args(false);
    command->add_option("--analytics", args->analytics, "after each slide: any of bfs,cc,pagerank");
    command->add_option("--root", args->root, "BFS root vertex (default 0)");
    command->add_option("-o,--output", args->output, "write one CSV row per slide");
    command->callback([args] { run_dyngraph(*args); });
}

}  // namespace spikeminer::cli
