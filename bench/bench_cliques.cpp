// Benchmark of maximal clique enumeration on edge-list graphs: count-only time and the
// time to also stream every clique to a sink (sorted lists), CPU on all threads. The GPU
// engine is not built yet; its columns come with it.
#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

using namespace spikeminer;

int main(int argc, char** argv) {
    CLI::App app{"bench_cliques: maximal clique enumeration on the CPU"};
    std::vector<std::string> files;
    bool gpu_check = false;
    app.add_option("GRAPHS", files, "edge-list files");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: the graphs in .bench-data/graphs/");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check && std::filesystem::is_directory(".bench-data/graphs")) {
        for (const auto& entry : std::filesystem::directory_iterator(".bench-data/graphs")) files.push_back(entry.path().string());
    }
    std::printf("| graph | vertices | edges | degeneracy | maximal cliques | largest | count s (%d threads) | list s |\n",
                omp_get_max_threads());
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    try {
        for (const std::string& file : files) {
            const io::EdgeListGraph input = io::read_edge_list(file);
            const std::size_t degeneracy = graph::degeneracy_order(input.graph).degeneracy;
            graph::CliqueSummary summary;
            auto start = std::chrono::steady_clock::now();
            summary = graph::enumerate_maximal_cliques(input.graph, {});
            const double count_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::uint64_t listed = 0;
            start = std::chrono::steady_clock::now();
            (void)graph::enumerate_maximal_cliques(input.graph, {}, [&](std::span<const graph::Vertex> c) { listed += c.size(); });
            const double list_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::printf("| %s | %u | %zu | %zu | %llu | %zu | %.3f | %.3f |\n",
                        std::filesystem::path(file).filename().string().c_str(), input.graph.num_vertices(),
                        input.graph.num_edges(), degeneracy, static_cast<unsigned long long>(summary.count),
                        summary.by_size.empty() ? 0 : summary.by_size.size() - 1, count_s, list_s);
            std::fflush(stdout);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_cliques: %s\n", e.what());
        return 1;
    }
    return 0;
}
