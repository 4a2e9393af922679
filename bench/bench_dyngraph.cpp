// Benchmark of the dynamic graph structures in GPMA's sliding-window setup: the window
// starts on the first half of an edge stream (generated streams: on `--edges / 2` edges,
// and they go on for as long as the sweep needs), then for each batch size k = 1, 2, 4, ...
// it slides (the oldest k stream edges out, the next k in) once untimed and then 8 to 64
// times timed on each structure. The table gives each structure's mean, median and worst
// slide, its graph updates per second, and the worst ratio of GPMA+ to the GPU rebuild on
// the same slide.
// After the slides, BFS, components and PageRank (10 iterations) run on the structure
// read in place and on its compact copy: the price of the gaps. Streams: R-MAT and
// Erdős–Rényi (generated) and edge-stream files.
//
// On a machine with a GPU, GPMA+ and the GPU-rebuild baseline slide too, with each
// step's batches copied to the device before the clock starts (a stream kept on the
// device, as in GPMA's setup), and the GPU analytics run on GPMA+ in place and on the
// rebuilt compact CSR (same kernels). --gpu-only skips the CPU structures (for graphs
// too large for them). --devices also slides GPMA+ cut by source over several GPUs (its
// shares copied to each device before the clock starts) and checks that it ends with
// one device's graph.
#include "spikeminer/app/io/edge_stream.hpp"
#include "spikeminer/app/sliding_window.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/adjacency_sets.hpp"
#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/cpu_pma.hpp"
#include "spikeminer/graph/generators.hpp"
#if SPIKEMINER_HAVE_CUDA
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/graph/gpu_analytics.hpp"
#include "spikeminer/graph/gpu_pma.hpp"
#include "spikeminer/graph/gpu_rebuild.hpp"
#include "spikeminer/graph/sharded_graph.hpp"

#include "device_calls.cuh"
#endif

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

using namespace spikeminer;

namespace {

using bench::cell;
using bench::seconds_of;

struct Dataset {
    std::string name;
    io::EdgeStream stream;
    std::size_t window = 0;  // edges in the window; 0: half the stream (GPMA's setup)
};

Dataset generated(const std::string& name, const std::vector<std::pair<graph::Vertex, graph::Vertex>>& edges, graph::Vertex vertices,
                  std::size_t window) {
    Dataset d{name, {}, window};
    d.stream.vertices = vertices;
    d.stream.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        d.stream.edges.push_back({edges[i].first, edges[i].second, 1.0F, static_cast<double>(i)});
    }
    return d;
}

// One structure's slides at one k: each slide's seconds, and the graph updates they made.
struct Slides {
    std::vector<double> seconds;
    std::size_t updates = 0;
};

// Mean, median and worst milliseconds a slide, and M updates a second; "-" when not run.
std::string summary(const Slides& s) {
    if (s.seconds.empty()) return "- | - | - | -";
    double total = 0;
    for (const double each : s.seconds) total += each;
    const double worst = *std::max_element(s.seconds.begin(), s.seconds.end());
    return cell(1e3 * total / static_cast<double>(s.seconds.size()), "%.4f") + " | " + cell(1e3 * bench::median(s.seconds), "%.4f") +
           " | " + cell(1e3 * worst, "%.4f") + " | " + cell(static_cast<double>(s.updates) / total / 1e6, "%.2f");
}

// The largest ratio of two structures' times for the same slide.
double worst_ratio(const Slides& a, const Slides& b) {
    double worst = -1;
    for (std::size_t i = 0; i < a.seconds.size() && i < b.seconds.size(); ++i) worst = std::max(worst, a.seconds[i] / b.seconds[i]);
    return worst;
}

// Timed slides at batch size k, after one untimed warm-up slide: enough to time small
// batches, and at least 8 for the median and the worst of large ones.
int slides_at(std::size_t k) { return static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 14) / k, 8, 64)); }

// Stream edges the sweep k = min..max consumes after the first window.
std::size_t sweep_edges(std::size_t min_batch, std::size_t max_batch) {
    std::size_t total = 0;
    for (std::size_t k = std::bit_floor(std::max<std::size_t>(min_batch, 1)); k <= max_batch; k *= 2) {
        total += k * static_cast<std::size_t>(slides_at(k) + 1);
    }
    return total;
}

// The best of three runs (the first pays for cold caches).
double best_ms(const std::function<void()>& work) {
    double best = 1e300;
    for (int run = 0; run < 3; ++run) best = std::min(best, 1e3 * seconds_of(work));
    return best;
}

graph::PageRankOptions ten_iterations() {
    graph::PageRankOptions ten;
    ten.fixed_iterations = 10;
    return ten;
}

template <typename View>
double analytics_ms(const View& g, const std::string& which, graph::Vertex root) {
    return best_ms([&] {
        if (which == "bfs") (void)graph::bfs_levels(g, root);
        if (which == "cc") (void)graph::connected_components(g);
        if (which == "pagerank") (void)graph::pagerank(g, ten_iterations());
    });
}

#if SPIKEMINER_HAVE_CUDA
// One slide's batches on a GPU structure, copied to the device first (untimed, and
// complete before the clock starts); the seconds the update took. GPMA+ queues the
// three batches, brings its vertex starts up to date (view()) and waits once; the rebuild baseline reads its counts back each batch
// (it sizes its arrays by them).
template <typename Gpu>
double timed_on_device(Gpu& structure, const app::WindowBatches& b) {
    const auto insert = detail::upload(b.insert, "bench batch");
    const auto erase = detail::upload(b.erase, "bench batch");
    const auto update = detail::upload(b.update, "bench batch");
    SPIKEMINER_CUDA_CHECK(cudaDeviceSynchronize());
    return seconds_of([&] {
        if constexpr (requires { structure.synchronize(); }) {  // GPMA+: queued, one wait a slide
            structure.erase_edges_async(erase.get(), b.erase.size(), nullptr);
            structure.insert_edges_async(insert.get(), b.insert.size(), nullptr);
            structure.update_values_async(update.get(), b.update.size(), nullptr);
            (void)structure.view();  // the vertex starts made current, as analytics would need
            (void)structure.synchronize();
        } else {
            structure.erase_edges_device(erase.get(), b.erase.size());
            structure.insert_edges_device(insert.get(), b.insert.size());
            structure.update_values_device(update.get(), b.update.size());
        }
    });
}

using ShardedGpma = graph::ShardedGraph<graph::GpuPma>;

// The same on GPMA+ cut over devices: each device's share split and copied to it first,
// then every device queues its three batches and waits, all at once (the threads' start
// and join inside the clock).
double timed_on_devices(ShardedGpma& structure, const app::WindowBatches& b) {
    const auto inserts = structure.split(std::span<const graph::EdgeUpdate>(b.insert));
    const auto erases = structure.split(std::span<const graph::EdgeRef>(b.erase));
    const auto updates = structure.split(std::span<const graph::EdgeUpdate>(b.update));
    const std::size_t n = structure.shards();
    std::vector<detail::DeviceBuffer<graph::EdgeUpdate>> insert(n);
    std::vector<detail::DeviceBuffer<graph::EdgeRef>> erase(n);
    std::vector<detail::DeviceBuffer<graph::EdgeUpdate>> update(n);
    on_devices(structure.devices(), [&](std::size_t s) {
        insert[s] = detail::upload(inserts[s], "bench batch");
        erase[s] = detail::upload(erases[s], "bench batch");
        update[s] = detail::upload(updates[s], "bench batch");
        SPIKEMINER_CUDA_CHECK(cudaDeviceSynchronize());
    });
    const double seconds = seconds_of([&] {
        on_devices(structure.devices(), [&](std::size_t s) {
            graph::GpuPma& shard = structure.shard(s);
            shard.erase_edges_async(erase[s].get(), erases[s].size(), nullptr);
            shard.insert_edges_async(insert[s].get(), inserts[s].size(), nullptr);
            shard.update_values_async(update[s].get(), updates[s].size(), nullptr);
            (void)shard.view();
            (void)shard.synchronize();
        });
    });
    on_devices(structure.devices(), [&](std::size_t s) {  // each device's buffers freed there
        insert[s] = {};
        erase[s] = {};
        update[s] = {};
    });
    return seconds;
}

double gpu_analytics_ms(const graph::GpmaView& g, const std::string& which, graph::Vertex root) {
    return best_ms([&] {
        if (which == "bfs") (void)graph::bfs_levels_gpu(g, root);
        if (which == "cc") (void)graph::connected_components_gpu(g);
        if (which == "pagerank") (void)graph::pagerank_gpu(g, ten_iterations());
    });
}

bool have_gpu() { return !query_devices().devices.empty(); }
#else
bool have_gpu() { return false; }
#endif

// What every dataset's run shares: the batch sizes, the structures run, and the device's
// measured copy bandwidth (measured once).
struct Setup {
    std::size_t min_batch = 1;
    std::size_t max_batch = 1;
    bool cpu = true;
    bool gpu = false;
    double copy_gbs = 0;
    std::vector<int> devices;  // two or more: GPMA+ also cut over them
};

// The window slides once per step; every structure gets the same batches.
void run(const Dataset& d, const Setup& setup) {
    const bool cpu = setup.cpu;
    [[maybe_unused]] const bool gpu = setup.gpu;  // read by the CUDA builds only
    const std::size_t window_size = d.window != 0 ? d.window : d.stream.edges.size() / 2;
    std::printf("\n### %s: %zu stream edges, %u vertices, window %zu\n\n", d.name.c_str(), d.stream.edges.size(),
                d.stream.vertices, window_size);
    app::SlidingWindow window(d.stream.edges, window_size);
    const app::WindowBatches first = window.fill();
    std::optional<graph::CpuPma> pma;
    std::optional<graph::AdjacencySets> sets;
    if (cpu) {
        pma.emplace(d.stream.vertices);
        sets.emplace(d.stream.vertices);
        const double fill_pma = seconds_of([&] { apply(*pma, first); });
        const double fill_sets = seconds_of([&] { apply(*sets, first); });
        std::printf("first window: %zu edges; PMA %.3f s, adjacency sets %.3f s\n", pma->num_edges(), fill_pma, fill_sets);
    }
#if SPIKEMINER_HAVE_CUDA
    std::optional<graph::GpuPma> gpma;
    std::optional<graph::GpuRebuildCsr> rebuild;
    std::optional<ShardedGpma> sharded;
    if (gpu) {
        {  // the process's first GPU work (module loading, first allocations) outside the timings
            graph::GpuPma warm_gpma(d.stream.vertices);
            graph::GpuRebuildCsr warm_rebuild(d.stream.vertices);
            apply(warm_gpma, first);
            apply(warm_rebuild, first);
        }
        gpma.emplace(d.stream.vertices);
        rebuild.emplace(d.stream.vertices);
        const double fill_gpma = seconds_of([&] { apply(*gpma, first); });
        const double fill_rebuild = seconds_of([&] { apply(*rebuild, first); });
        std::printf("first window: %zu edges; GPMA+ %.3f s, GPU rebuild %.3f s (from host memory); copy bandwidth %.0f GB/s\n",
                    gpma->num_edges(), fill_gpma, fill_rebuild, setup.copy_gbs);
        if (setup.devices.size() > 1) {
            sharded.emplace(d.stream.vertices, setup.devices, graph::balanced_cuts(d.stream.vertices, setup.devices.size(), first.insert));
            const double fill_sharded = seconds_of([&] { apply(*sharded, first); });
            std::printf("first window: GPMA+ over %zu devices %.3f s (from host memory)\n", setup.devices.size(), fill_sharded);
        }
    }
#endif
    std::printf("\nmilliseconds a slide: mean | median | worst, over the timed slides; the first slide at each k (untimed in them) apart\n\n"
                "| k | slides | PMA (CPU) mean | median | worst | M updates/s | AdjLists (CPU) mean | median | worst | M updates/s | "
                "GPMA+ mean | median | worst | M updates/s | GPU rebuild mean | median | worst | M updates/s | "
                "GPMA+ / rebuild, worst slide | GPMA+ first slide | GPU rebuild first slide | "
                "GPMA+ over devices mean | median | worst | M updates/s | devices' speed-up (medians) |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                "---:|---:|---:|---:|---:|\n");
    app::WindowBatches batches;
    for (std::size_t k = std::bit_floor(std::max<std::size_t>(setup.min_batch, 1)); k <= setup.max_batch; k *= 2) {
        const int slides = slides_at(k);
        if (window.remaining() < k * static_cast<std::size_t>(slides + 1)) break;
        Slides timed[5];  // PMA, sets, GPMA+, rebuild, GPMA+ over devices
        double first_slide[5] = {-1, -1, -1, -1, -1};
        // Slide 0 is the warm-up, on every structure whichever run (GPMA+ captures its
        // graphs for this batch size there, and scratch grows to it): reported apart.
        for (int i = 0; i <= slides && window.slide(k, batches); ++i) {
            const std::size_t updates = batches.insert.size() + batches.erase.size() + batches.update.size();
            double seconds[5] = {-1, -1, -1, -1, -1};
            if (cpu) {
                seconds[0] = seconds_of([&] { apply(*pma, batches); });
                seconds[1] = seconds_of([&] { apply(*sets, batches); });
            }
#if SPIKEMINER_HAVE_CUDA
            if (gpu) {
                seconds[2] = timed_on_device(*gpma, batches);
                seconds[3] = timed_on_device(*rebuild, batches);
                if (sharded) seconds[4] = timed_on_devices(*sharded, batches);
            }
#endif
            if (i == 0) {
                std::copy(std::begin(seconds), std::end(seconds), std::begin(first_slide));
                continue;
            }
            for (int s = 0; s < 5; ++s) {
                if (seconds[s] < 0) continue;
                timed[s].seconds.push_back(seconds[s]);
                timed[s].updates += updates;
            }
        }
        std::printf("| %zu | %d |", k, slides);
        for (int s = 0; s < 4; ++s) std::printf(" %s |", summary(timed[s]).c_str());
        std::printf(" %s | %s | %s | %s | %s |\n", cell(worst_ratio(timed[2], timed[3]), "%.2f").c_str(), cell(1e3 * first_slide[2], "%.4f").c_str(),
                    cell(1e3 * first_slide[3], "%.4f").c_str(), summary(timed[4]).c_str(),
                    cell(timed[4].seconds.empty() ? -1 : bench::median(timed[2].seconds) / bench::median(timed[4].seconds), "%.2f").c_str());
        std::fflush(stdout);
    }
#if SPIKEMINER_HAVE_CUDA
    if (sharded) {
        const graph::WeightedCsr one = gpma->to_csr();
        const graph::WeightedCsr cut = sharded->to_csr();
        const bool same = one.offsets == cut.offsets && one.targets == cut.targets && one.values == cut.values;
        std::printf("\nGPMA+ over devices %s (cuts", same ? "holds one device's graph" : "DIFFERS from one device's graph");
        for (const graph::Vertex c : sharded->cuts()) std::printf(" %u", c);
        std::printf(")\n");
        if (!same) throw Error("GPMA+ over devices differs from GPMA+ on one");
    }
#endif
    // BFS from the source of the stream's last edge (vertex 0 may not exist: KONECT counts from 1).
    const graph::Vertex root = d.stream.edges.empty() ? 0 : d.stream.edges.back().src;
    std::printf("\n| analytics after the slides | PMA (CPU) in place ms | compact CSR (CPU) ms | ratio | GPMA+ in place ms | "
                "compact CSR (GPU) ms | ratio |\n|---|---:|---:|---:|---:|---:|---:|\n");
    const std::optional<graph::WeightedCsr> compact = cpu ? std::optional(pma->to_csr()) : std::nullopt;
    for (const std::string which : {"bfs", "cc", "pagerank"}) {
        const double in_place = cpu ? analytics_ms(*pma, which, root) : -1;
        const double on_csr = cpu ? analytics_ms(*compact, which, root) : -1;
        double gpu_in_place = -1;
        double gpu_csr = -1;
#if SPIKEMINER_HAVE_CUDA
        if (gpu) {
            gpu_in_place = gpu_analytics_ms(gpma->view(), which, root);
            gpu_csr = gpu_analytics_ms(rebuild->view(), which, root);
        }
#endif
        std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", which.c_str(), cell(in_place, "%.3f").c_str(), cell(on_csr, "%.3f").c_str(),
                    cell(on_csr > 0 ? in_place / on_csr : -1, "%.2f").c_str(), cell(gpu_in_place, "%.3f").c_str(),
                    cell(gpu_csr, "%.3f").c_str(), cell(gpu_csr > 0 ? gpu_in_place / gpu_csr : -1, "%.2f").c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_dyngraph: dynamic graph structures in a sliding window"};
    unsigned rmat_scale = 18;
    std::size_t edges = 4'000'000;
    std::size_t min_batch = 1;
    std::size_t max_batch = std::size_t{1} << 20;
    std::vector<std::string> files;
    std::vector<std::string> konect;
    std::string columns = "src,dst,time";
    bool gpu_check = false;
    bool gpu_only = false;
    app.add_option("--rmat-scale", rmat_scale, "R-MAT vertices = 2^scale (0: no R-MAT stream)");
    app.add_option("--edges", edges,
                   "generated streams: the window holds half this many edges (GPMA's setup), and the stream goes on for "
                   "every k's slides (0: no generated stream)");
    app.add_option("--min-batch", min_batch, "smallest k (a power of two)");
    app.add_option("--max-batch", max_batch, "largest k");
    app.add_option("STREAMS", files, "edge-stream files");
    app.add_option("--columns", columns, "the files' columns");
    app.add_option("--konect", konect, "KONECT streams (src dst weight time, signed weights)");
    app.add_flag("--gpu-check", gpu_check,
                 "the GPU machine's run: also the streams in .bench-data/temporal/ and .bench-data/konect/ and a GPU-only "
                 "R-MAT of scale 22 with a window of 16M edges");
    app.add_flag("--gpu-only", gpu_only, "only the GPU structures");
    std::vector<int> devices;
    app.add_option("--devices", devices,
                   "also GPMA+ cut by source over these GPUs, e.g. 0,1 (--gpu-check: every GPU, when there are two or more)")
        ->delimiter(',')->allow_extra_args(false);
    CLI11_PARSE(app, argc, argv);
    Setup setup{min_batch, max_batch, !gpu_only, have_gpu(), 0, devices};
#if SPIKEMINER_HAVE_CUDA
    const std::size_t visible = setup.gpu ? query_devices().devices.size() : 0;
    if (gpu_check && setup.devices.empty() && visible > 1) {
        for (std::size_t d = 0; d < visible; ++d) setup.devices.push_back(static_cast<int>(d));
    }
#endif
#if SPIKEMINER_HAVE_CUDA
    if (setup.gpu) setup.copy_gbs = run_device_self_test(0, std::size_t{1} << 24).bandwidth_gbs;
#endif
    if (gpu_only && !setup.gpu) {
        std::fprintf(stderr, "bench_dyngraph: --gpu-only needs a CUDA device (none here)\n");
        return 1;
    }
    const auto add_folder = [gpu_check](const char* folder, std::vector<std::string>& to) {
        if (!gpu_check || !std::filesystem::is_directory(folder)) return;
        for (const auto& entry : std::filesystem::directory_iterator(folder)) to.push_back(entry.path().string());
        std::sort(to.begin(), to.end());
    };
    add_folder(".bench-data/temporal", files);
    add_folder(".bench-data/konect", konect);
    try {
        std::printf("## bench_dyngraph\n");
        // Generated streams: a window of half `edges`, then as many edges as the sweep slides in.
        const auto stream_for = [&](std::size_t window) { return window + sweep_edges(min_batch, max_batch); };
        if (edges != 0 && rmat_scale != 0) {
            const graph::Vertex n = graph::Vertex{1} << rmat_scale;
            run(generated("R-MAT scale " + std::to_string(rmat_scale), graph::rmat_edges(rmat_scale, stream_for(edges / 2), 1), n, edges / 2),
                setup);
            run(generated("Erdős–Rényi, " + std::to_string(n) + " vertices", graph::erdos_renyi_edges(n, stream_for(edges / 2), 2), n,
                          edges / 2),
                setup);
        }
        io::EdgeStreamOptions options;
        options.columns = io::parse_stream_columns(columns);
        for (const std::string& file : files) {
            run({std::filesystem::path(file).filename().string(), io::read_edge_stream(file, options)}, setup);
        }
        io::EdgeStreamOptions konect_options;
        konect_options.columns = io::parse_stream_columns("src,dst,weight,time");
        konect_options.signed_weights = true;
        for (const std::string& file : konect) {
            run({std::filesystem::path(file).filename().string(), io::read_edge_stream(file, konect_options)}, setup);
        }
        if (gpu_check && setup.gpu) {
            const unsigned scale = 22;
            Setup gpu_only_setup = setup;
            gpu_only_setup.cpu = false;
            const std::size_t window = std::size_t{16} << 20;
            run(generated("R-MAT scale 22 (GPU only)", graph::rmat_edges(scale, stream_for(window), 3), graph::Vertex{1} << scale, window),
                gpu_only_setup);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_dyngraph: %s\n", e.what());
        return 1;
    }
    return 0;
}
