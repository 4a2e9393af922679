// Benchmark of maximal clique enumeration on edge-list graphs and on generated ones (R-MAT
// and Erdős–Rényi with 16 edges a vertex, and the co-firing graphs of simulated
// recordings, which is what `spikeminer assemblies` searches); every time is a median of
// runs (see run()). Table 1, per graph: the CPU engine on all threads and the GPU engine
// (its default options) from a loaded graph to the count, ordering included, and the time to
// also list every clique (sorted vertex lists) to an in-memory sink that hashes them, in
// batches and one clique a call; the counts and the listed cliques must agree; and `auto`
// (the engine's own choice, whose name follows its time). Table 2: the GPU for every option
// combination (L1/L2 x IP/IPX x worker list on/off). The GPU's plan (workers, lanes) is
// printed beneath. With --devices, a table of the count on one GPU and on those together.
#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/app/io/edge_list.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/graph/generators.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <span>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace spikeminer;

namespace {

// How the cliques are taken: counted only, listed in batches to an in-memory sink (or to
// one that drops them: the engine's hand-over alone, without the sink's work), or listed
// one at a time.
enum class Take { Count, Batches, Discard, OneByOne };

struct Timed {
    graph::CliqueSummary summary;
    double seconds = -1;
    std::uint64_t digest = 0;  // listed: an order-free digest of the cliques (each hashed in its order)
};

// One clique's hash (FNV-1a over its ids, in the order given).
std::uint64_t hash_of(std::span<const graph::Vertex> clique) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const graph::Vertex v : clique) h = (h ^ v) * 1099511628211ULL;
    return h;
}

// The median of up to 11 runs while they take under a second in all (one run when the first
// takes longer): small graphs take milliseconds, where one run is mostly noise.
Timed run(const graph::Graph& g, const graph::CliqueOptions& options, Take take) {
    std::atomic<std::uint64_t> digest{0};
    Timed t;
    std::vector<double> times;
    double total = 0;
    while (times.empty() || (times.size() < 11 && total + times.front() < 1.0)) {
        digest = 0;
        times.push_back(bench::seconds_of([&] {
            if (take == Take::Count) {
                t.summary = graph::enumerate_maximal_cliques(g, options);
            } else if (take == Take::Batches) {
                t.summary = graph::list_maximal_cliques(g, options, [&](const graph::CliqueBatch& batch) {
                    std::uint64_t sum = 0;
                    for (std::size_t i = 0; i < batch.size(); ++i) sum += hash_of(batch[i]);
                    digest += sum;
                });
            } else if (take == Take::Discard) {
                t.summary = graph::list_maximal_cliques(g, options, [](const graph::CliqueBatch&) {});
            } else {
                t.summary = graph::enumerate_maximal_cliques(g, options, [&](std::span<const graph::Vertex> c) { digest += hash_of(c); });
            }
        }));
        total += times.back();
    }
    t.seconds = bench::median(times);
    t.digest = digest;
    return t;
}

std::string seconds(double s) { return bench::cell(s, "%.4f"); }

constexpr std::size_t kEdgesPerVertex = 16;

// The co-firing graph of a simulated recording of `scenario`, built as `spikeminer
// assemblies` builds it (default parameters).
graph::Graph cofiring_of(const std::string& scenario) {
    const simulator::Simulation simulation = simulator::simulate(simulator::scenario(scenario));
    const AssemblySearch search = default_assembly_search(simulation.trains.time_base());
    const mining::CofiringWindow window = mining::cofiring_whole_recording(simulation.trains, search.cofiring);
    return graph::Graph::from_edges(static_cast<graph::Vertex>(simulation.trains.num_neurons()), mining::joined_pairs(window));
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_cliques: maximal clique enumeration, CPU and GPU"};
    std::vector<std::string> files;
    std::vector<unsigned> rmat_scales;
    std::vector<unsigned> er_scales;
    std::vector<std::string> cofiring;
    bool gpu_check = false;
    std::uint64_t list_up_to = 200'000'000;
    unsigned lanes = 0;
    std::vector<int> devices;
    bool no_combos = false;
    std::size_t hand_over_from = graph::GpuCliqueOptions{}.hand_over_from;
    app.add_option("GRAPHS", files, "edge-list files");
    app.add_option("--rmat", rmat_scales, "R-MAT graphs of 2^SCALE vertices and 16 edges a vertex (seed 1)")
        ->check(CLI::Range(1, 26));
    app.add_option("--er", er_scales, "Erdős–Rényi graphs of 2^SCALE vertices and 16 edges a vertex (seed 1)")
        ->check(CLI::Range(1, 26));
    app.add_option("--cofiring", cofiring, "co-firing graphs of simulated scenarios (paper, assemblies, large)");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: the graphs in .bench-data/graphs/");
    app.add_option("--list-up-to", list_up_to, "time listing only for graphs with at most this many cliques");
    app.add_option("--lanes", lanes, "GPU lanes per worker (0: the engine's choice)");
    app.add_option("--hand-over-from", hand_over_from, "GPU: the fewest candidates of a branch handed to an idle worker (0: the engine's choice)");
    app.add_option("--devices", devices, "also count on these GPUs together, e.g. 0,1 (--gpu-check: every GPU, when there are two or more)")
        ->delimiter(',')->allow_extra_args(false);
    app.add_flag("--no-combos", no_combos, "skip the table of GPU option combinations");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check && std::filesystem::is_directory(".bench-data/graphs")) {
        for (const auto& entry : std::filesystem::directory_iterator(".bench-data/graphs")) files.push_back(entry.path().string());
        std::sort(files.begin(), files.end());
    }
    const std::size_t visible = query_devices().devices.size();
    const bool gpu = visible > 0;
    if (gpu_check && devices.empty() && visible > 1) {
        for (std::size_t d = 0; d < visible; ++d) devices.push_back(static_cast<int>(d));
    }
    struct Loaded {
        std::string name;
        graph::Graph graph;
    };
    std::vector<Loaded> graphs;
    try {
        const auto add = [&](std::string name, graph::Graph g) { graphs.push_back({std::move(name), std::move(g)}); };
        for (const std::string& file : files) add(std::filesystem::path(file).filename().string(), io::read_graph(file).graph);
        for (const unsigned scale : rmat_scales) {
            const graph::Vertex n = graph::Vertex{1} << scale;
            add("rmat-" + std::to_string(scale), graph::Graph::from_edges(n, graph::rmat_edges(scale, kEdgesPerVertex * n, 1)));
        }
        for (const unsigned scale : er_scales) {
            const graph::Vertex n = graph::Vertex{1} << scale;
            add("er-" + std::to_string(scale), graph::Graph::from_edges(n, graph::erdos_renyi_edges(n, kEdgesPerVertex * n, 1)));
        }
        for (const std::string& scenario : cofiring) add("cofiring-" + scenario, cofiring_of(scenario));
        graph::CliqueOptions cpu;
        cpu.backend = Backend::Cpu;
        graph::CliqueOptions on_gpu;
        on_gpu.backend = Backend::Cuda;
        on_gpu.gpu.lanes = lanes;
        on_gpu.gpu.hand_over_from = hand_over_from;
        std::printf("| graph | vertices | edges | degeneracy | maximal cliques | largest | CPU count s (%d threads) | GPU count s "
                    "| speed-up | auto count s | CPU list s (batches) | GPU list s (batches) | GPU list / count | GPU list s (sink drops) "
                    "| CPU list s (one by one) | GPU list s (one by one) |\n",
                    omp_get_max_threads());
        std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        std::vector<std::string> plans;
        for (const Loaded& l : graphs) {
            const Timed c = run(l.graph, cpu, Take::Count);
            Timed g;
            if (gpu) {
                (void)graph::enumerate_maximal_cliques(l.graph, on_gpu);  // the first call on a device pays for its start
                g = run(l.graph, on_gpu, Take::Count);
                if (g.summary.count != c.summary.count || g.summary.by_size != c.summary.by_size) {
                    throw Error(l.name + ": the GPU counted " + std::to_string(g.summary.count) + " cliques, the CPU " +
                                std::to_string(c.summary.count));
                }
                if (g.summary.degeneracy != c.summary.degeneracy) {  // the GPU's peeling against the CPU's order
                    throw Error(l.name + ": the GPU's order has " + std::to_string(g.summary.degeneracy) +
                                " later neighbours at most, the degeneracy is " + std::to_string(c.summary.degeneracy));
                }
                plans.push_back(l.name + ": " + g.summary.note);
            }
            const Timed automatic = run(l.graph, graph::CliqueOptions{}, Take::Count);
            if (automatic.summary.count != c.summary.count) {
                throw Error(l.name + ": auto counted " + std::to_string(automatic.summary.count) + " cliques, the CPU " +
                            std::to_string(c.summary.count));
            }
            const bool list = c.summary.count <= list_up_to;
            // Listed on each engine both ways; every listing must give the CPU's cliques.
            Timed lists[4];  // CPU batches, GPU batches, CPU one by one, GPU one by one
            Timed dropped;   // GPU batches to a sink that drops them
            if (list) {
                lists[0] = run(l.graph, cpu, Take::Batches);
                lists[2] = run(l.graph, cpu, Take::OneByOne);
                if (gpu) {
                    lists[1] = run(l.graph, on_gpu, Take::Batches);
                    lists[3] = run(l.graph, on_gpu, Take::OneByOne);
                    dropped = run(l.graph, on_gpu, Take::Discard);
                    if (dropped.summary.count != c.summary.count) throw Error(l.name + ": a GPU listing counted other cliques");
                    plans.push_back(l.name + " (listed in batches): " + lists[1].summary.note);
                }
                for (const Timed& each : lists) {
                    if (each.seconds >= 0 && each.digest != lists[0].digest) throw Error(l.name + ": a listing differs from the CPU's");
                }
            }
            std::printf("| %s | %u | %zu | %zu | %llu | %zu | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s |\n", l.name.c_str(),
                        l.graph.num_vertices(), l.graph.num_edges(), c.summary.degeneracy, static_cast<unsigned long long>(c.summary.count),
                        c.summary.by_size.empty() ? 0 : c.summary.by_size.size() - 1, seconds(c.seconds).c_str(),
                        seconds(g.seconds).c_str(), g.seconds > 0 ? (std::to_string(c.seconds / g.seconds).substr(0, 5) + "x").c_str() : "-",
                        seconds(automatic.seconds).c_str(), backend_name(automatic.summary.backend).c_str(), seconds(lists[0].seconds).c_str(),
                        seconds(lists[1].seconds).c_str(),
                        bench::cell(g.seconds > 0 && lists[1].seconds > 0 ? lists[1].seconds / g.seconds : -1, "%.2f").c_str(),
                        seconds(dropped.seconds).c_str(), seconds(lists[2].seconds).c_str(), seconds(lists[3].seconds).c_str());
            std::fflush(stdout);
        }
        for (const std::string& plan : plans) std::printf("\n%s", plan.c_str());
        if (!gpu) return 0;
        if (devices.size() > 1) {
            std::printf("\n\nGPU count over %zu devices (the subtrees dealt round robin, one host thread a device):\n\n"
                        "| graph | maximal cliques | one GPU s | devices s | speed-up | counts equal |\n|---|---:|---:|---:|---:|---|\n",
                        devices.size());
            graph::CliqueOptions shared = on_gpu;
            shared.gpu.devices = devices;
            for (const Loaded& l : graphs) {
                const Timed one = run(l.graph, on_gpu, Take::Count);
                (void)graph::enumerate_maximal_cliques(l.graph, shared);  // every device's start paid before the clock
                const Timed many = run(l.graph, shared, Take::Count);
                const bool equal = many.summary.count == one.summary.count && many.summary.by_size == one.summary.by_size;
                std::printf("| %s | %llu | %s | %s | %s | %s |\n", l.name.c_str(), static_cast<unsigned long long>(one.summary.count),
                            seconds(one.seconds).c_str(), seconds(many.seconds).c_str(), bench::cell(one.seconds / many.seconds, "%.2f").c_str(),
                            equal ? "yes" : "NO");
                std::fflush(stdout);
                if (!equal) throw Error(l.name + ": the devices counted other cliques than one GPU");
            }
        }
        if (no_combos) return 0;
        std::printf("\n\nGPU count s per option combination (ordering included):\n\n| graph |");
        struct Combo {
            graph::SubtreeLevel level;
            graph::InducedSubgraph induced;
            bool worker_list;
            const char* name;
        };
        const Combo combos[] = {{graph::SubtreeLevel::L1, graph::InducedSubgraph::Partial, true, "L1 IP"},
                                {graph::SubtreeLevel::L1, graph::InducedSubgraph::Full, true, "L1 IPX"},
                                {graph::SubtreeLevel::L2, graph::InducedSubgraph::Partial, true, "L2 IP"},
                                {graph::SubtreeLevel::L2, graph::InducedSubgraph::Full, true, "L2 IPX"},
                                {graph::SubtreeLevel::L1, graph::InducedSubgraph::Partial, false, "L1 IP, no WL"},
                                {graph::SubtreeLevel::L1, graph::InducedSubgraph::Full, false, "L1 IPX, no WL"},
                                {graph::SubtreeLevel::L2, graph::InducedSubgraph::Partial, false, "L2 IP, no WL"},
                                {graph::SubtreeLevel::L2, graph::InducedSubgraph::Full, false, "L2 IPX, no WL"}};
        for (const Combo& combo : combos) std::printf(" %s |", combo.name);
        std::printf("\n|---|");
        for (std::size_t i = 0; i < std::size(combos); ++i) std::printf("---:|");
        std::printf("\n");
        for (const Loaded& l : graphs) {
            std::printf("| %s |", l.name.c_str());
            for (const Combo& combo : combos) {
                graph::CliqueOptions options = on_gpu;
                options.gpu.level = combo.level;
                options.gpu.induced = combo.induced;
                options.gpu.worker_list = combo.worker_list;
                std::printf(" %s |", seconds(run(l.graph, options, Take::Count).seconds).c_str());
                std::fflush(stdout);
            }
            std::printf("\n");
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_cliques: %s\n", e.what());
        return 1;
    }
    return 0;
}
