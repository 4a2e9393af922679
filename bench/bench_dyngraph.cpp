// Benchmark of the dynamic graph structures in GPMA's sliding-window setup: the window
// starts on the first half of an edge stream, then for each batch size k = 1, 2, 4, ...
// it slides (the oldest k stream edges out, the next k in) a few times on each structure,
// and the table gives the update latency per slide and the graph updates per second.
// After the slides, BFS, components and PageRank (10 iterations) run on the structure
// read in place and on its compact copy: the price of the gaps. Streams: R-MAT and
// Erdős–Rényi (generated) and edge-stream files. GPU columns come with GPMA+.
#include "spikeminer/app/io/edge_stream.hpp"
#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/adjacency_sets.hpp"
#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/generators.hpp"

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

using namespace spikeminer;

namespace {

using bench::cell;
using bench::seconds_of;

struct Dataset {
    std::string name;
    io::EdgeStream stream;
};

Dataset generated(const std::string& name, const std::vector<std::pair<graph::Vertex, graph::Vertex>>& edges, graph::Vertex vertices) {
    Dataset d{name, {}};
    d.stream.vertices = vertices;
    d.stream.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        d.stream.edges.push_back({edges[i].first, edges[i].second, 1.0F, static_cast<double>(i)});
    }
    return d;
}

struct Row {
    double latency_ms = -1;
    double updates_per_s = 0;
};

// Slides `structure` (already holding the window) `slides` times by k; the window moves on.
template <typename Dynamic>
Row slide(Dynamic& structure, app::SlidingWindow& window, std::size_t k, int slides) {
    std::size_t updates = 0;
    double seconds = 0;
    int done = 0;
    app::WindowBatches batches;
    for (; done < slides && window.slide(k, batches); ++done) {
        updates += batches.insert.size() + batches.erase.size() + batches.update.size();
        seconds += seconds_of([&] { apply(structure, batches); });
    }
    if (done == 0) return {};
    return {1e3 * seconds / done, static_cast<double>(updates) / seconds};
}

// The best of three runs (the first pays for cold caches).
template <typename View>
double analytics_ms(const View& g, const char* which) {
    graph::PageRankOptions ten;
    ten.fixed_iterations = 10;
    double best = 1e300;
    for (int run = 0; run < 3; ++run) {
        best = std::min(best, 1e3 * seconds_of([&] {
            if (std::string(which) == "bfs") (void)graph::bfs_levels(g, 0);
            if (std::string(which) == "cc") (void)graph::connected_components(g);
            if (std::string(which) == "pagerank") (void)graph::pagerank(g, ten);
        }));
    }
    return best;
}

void run(const Dataset& d, std::size_t max_batch) {
    const std::size_t window_size = d.stream.edges.size() / 2;
    std::printf("\n### %s: %zu stream edges, %u vertices, window %zu\n\n", d.name.c_str(), d.stream.edges.size(),
                d.stream.vertices, window_size);
    graph::CpuPma pma(d.stream.vertices);
    graph::AdjacencySets sets(d.stream.vertices);
    app::SlidingWindow pma_window(d.stream.edges, window_size);
    app::SlidingWindow sets_window(d.stream.edges, window_size);
    const double fill_pma = seconds_of([&] { apply(pma, pma_window.fill()); });
    const double fill_sets = seconds_of([&] { apply(sets, sets_window.fill()); });
    std::printf("first window: %zu edges; PMA %.3f s, adjacency sets %.3f s\n\n", pma.num_edges(), fill_pma, fill_sets);
    std::printf("| k | PMA (CPU) ms/slide | PMA M updates/s | AdjLists (CPU) ms/slide | AdjLists M updates/s |\n");
    std::printf("|---:|---:|---:|---:|---:|\n");
    for (std::size_t k = 1; k <= max_batch; k *= 2) {
        // Enough slides to time small batches, few for large ones; the stream's second
        // half has to last for every k.
        const int slides = static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 14) / k, 1, 64));
        if (pma_window.remaining() < k * static_cast<std::size_t>(slides)) break;
        const Row a = slide(pma, pma_window, k, slides);
        const Row b = slide(sets, sets_window, k, slides);
        std::printf("| %zu | %s | %s | %s | %s |\n", k, cell(a.latency_ms, "%.4f").c_str(), cell(a.updates_per_s / 1e6, "%.2f").c_str(),
                    cell(b.latency_ms, "%.4f").c_str(), cell(b.updates_per_s / 1e6, "%.2f").c_str());
        std::fflush(stdout);
    }
    const graph::WeightedCsr compact = pma.to_csr();
    std::printf("\n| analytics after the slides | PMA in place ms | compact CSR ms | ratio |\n|---|---:|---:|---:|\n");
    for (const char* which : {"bfs", "cc", "pagerank"}) {
        const double in_place = analytics_ms(pma, which);
        const double on_csr = analytics_ms(compact, which);
        std::printf("| %s | %.3f | %.3f | %.2f |\n", which, in_place, on_csr, on_csr > 0 ? in_place / on_csr : 0.0);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_dyngraph: dynamic graph structures in a sliding window"};
    unsigned rmat_scale = 18;
    std::size_t edges = 4'000'000;
    std::size_t max_batch = std::size_t{1} << 20;
    std::vector<std::string> files;
    std::string columns = "src,dst,time";
    bool gpu_check = false;
    app.add_option("--rmat-scale", rmat_scale, "R-MAT vertices = 2^scale (0: no R-MAT stream)");
    app.add_option("--edges", edges, "edges in each generated stream (0: none)");
    app.add_option("--max-batch", max_batch, "largest k");
    app.add_option("STREAMS", files, "edge-stream files");
    app.add_option("--columns", columns, "the files' columns");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: also the streams in .bench-data/temporal/");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check && std::filesystem::is_directory(".bench-data/temporal")) {
        for (const auto& entry : std::filesystem::directory_iterator(".bench-data/temporal")) files.push_back(entry.path().string());
        std::sort(files.begin(), files.end());
    }
    try {
        std::printf("## bench_dyngraph\n");
        if (edges != 0 && rmat_scale != 0) {
            run(generated("R-MAT scale " + std::to_string(rmat_scale), graph::rmat_edges(rmat_scale, edges, 1), graph::Vertex{1} << rmat_scale),
                max_batch);
            const graph::Vertex n = graph::Vertex{1} << rmat_scale;
            run(generated("Erdős–Rényi, " + std::to_string(n) + " vertices", graph::erdos_renyi_edges(n, edges, 2), n), max_batch);
        }
        io::EdgeStreamOptions options;
        options.columns = io::parse_stream_columns(columns);
        for (const std::string& file : files) {
            run({std::filesystem::path(file).filename().string(), io::read_edge_stream(file, options)}, max_batch);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_dyngraph: %s\n", e.what());
        return 1;
    }
    return 0;
}
