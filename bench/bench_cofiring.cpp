// Benchmark of the co-firing engine: every window of a recording (or the whole recording as
// one window) on the CPU (each thread count asked for) and the GPU, on the same input in
// one run, with the windows checked to be identical across backends, with or without the
// surrogate edge test. For a simulated
// recording it also says what the edges recover of the ground truth: the embedded
// assemblies as maximal cliques of the synchrony edges, and the chains' consecutive pairs
// as directed edges at their delays; and, over independent Poisson neurons (no structure,
// every edge false), on how many seeds any edge came out at all.
#include "spikeminer/app/assembly_recovery.hpp"
#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <vector>

using namespace spikeminer;

namespace {

using bench::cell;
using bench::seconds_of;

struct Input {
    std::string name;
    SpikeTrains trains;
    std::optional<simulator::GroundTruth> truth;
};

Input simulated(const std::string& scenario, double duration_s, std::uint64_t seed, std::size_t neurons) {
    simulator::NetworkConfig config = simulator::scenario(scenario == "none" ? "paper" : scenario);
    if (scenario == "none") {
        config.chains.clear();
        config.assemblies.clear();
    }
    if (neurons != 0) config.neurons = neurons;
    config.duration_s = duration_s;
    config.seed = seed;
    simulator::Simulation simulation = simulator::simulate(config);
    const auto minutes = static_cast<long long>(std::lround(duration_s / 60));
    return {scenario + "-" + std::to_string(config.neurons) + "n-" + std::to_string(minutes) + "min", std::move(simulation.trains),
            std::move(simulation.truth)};
}

// A run's windows, summed up: their edges and a hash of all of them in order.
struct Outcome {
    double seconds = -1;
    std::size_t windows = 0;
    std::size_t edges = 0;
    std::uint64_t hash = 0;
    mining::CofiringWindow first;  // the first window (the whole recording, when that is the window)
    std::string backend;
};

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) { return (hash ^ value) * 0x100000001B3ULL; }

Outcome run(const SpikeTrains& trains, mining::CofiringOptions options) {
    Outcome out;
    out.hash = 0xCBF29CE484222325ULL;
    out.seconds = seconds_of([&] {
        mining::CofiringWindows windows(trains, options);
        // In batches, as the pipeline's counting threads take them (the surrogate edge test
        // tests a batch's windows together on the GPU).
        std::vector<mining::CofiringWindow> batch(64);
        while (const std::size_t made = windows.next(std::span(batch))) {
            for (std::size_t k = 0; k < made; ++k) {
                const mining::CofiringWindow& window = batch[k];
                for (const mining::CofiringEdge& e : window.edges) {
                    out.hash = mix(mix(mix(mix(out.hash, window.index), e.a), (std::uint64_t{e.b} << 8) ^ static_cast<std::uint64_t>(e.interval + 1)),
                                   e.count ^ std::bit_cast<std::uint64_t>(e.p));
                }
                out.edges += window.edges.size();
                if (out.windows++ == 0) out.first = window;
            }
        }
        out.backend = backend_name(windows.backend().backend) + (windows.backend().note.empty() ? "" : " (" + windows.backend().note + ")");
    });
    return out;
}

// What the whole recording recovers of a simulation's ground truth: the assemblies as
// `spikeminer assemblies` finds them (maximal cliques of the synchrony edges, its defaults),
// and the chains from the edges of `window` (the lags asked for).
void print_recovery(const Input& input, const mining::CofiringWindow& window, const mining::CofiringOptions& options, Backend backend) {
    const simulator::GroundTruth& truth = *input.truth;
    AssemblySearch search = default_assembly_search(input.trains.time_base());
    search.cofiring.backend = backend;
    const std::vector<std::vector<NeuronId>> found = find_assemblies(input.trains, search).assemblies;
    std::size_t exact = 0;
    for (const AssemblyRecovery& r : recovered_assemblies(truth, found)) exact += r.jaccard == 1.0;
    // The expected z of an assembly pair: its joint activations over the Poisson spread of
    // chance coincidences, n_a n_b (2 sync / grid + 1) / (span / grid), on the 1 ms grid.
    const double grid = static_cast<double>(input.trains.time_base().from_seconds(0.001));
    const double steps = static_cast<double>(input.trains.span().length()) / grid;
    const double sync_lags = 2 * std::floor(static_cast<double>(options.lags.sync) / grid) + 1;
    double z_sum = 0;
    std::size_t pairs = 0;
    for (const auto& a : truth.assemblies) {
        for (std::size_t i = 0; i < a.members.size(); ++i) {
            for (std::size_t j = i + 1; j < a.members.size(); ++j) {
                const double chance = static_cast<double>(input.trains.spike_count(a.members[i])) *
                                      static_cast<double>(input.trains.spike_count(a.members[j])) * sync_lags / steps;
                z_sum += static_cast<double>(a.activation_times.size()) / std::sqrt(chance);
                ++pairs;
            }
        }
    }
    // Chains: each consecutive pair as a directed edge at an interval holding its delay.
    std::set<std::tuple<NeuronId, NeuronId, int>> directed;
    for (const mining::CofiringEdge& e : window.edges) directed.emplace(e.a, e.b, e.interval);
    std::size_t links = 0;
    std::size_t links_found = 0;
    for (const auto& chain : truth.chains) {
        for (std::size_t k = 0; k + 1 < chain.neurons.size(); ++k) {
            ++links;
            for (std::size_t i = 0; i < options.lags.intervals.size(); ++i) {
                const mining::Interval& lags = options.lags.intervals[i];
                if (lags.lo < chain.delays[k].start && chain.delays[k].end <= lags.hi &&
                    directed.count({chain.neurons[k], chain.neurons[k + 1], static_cast<int>(i)}) != 0) {
                    ++links_found;
                    break;
                }
            }
        }
    }
    // Pairs joined by any edge that the ground truth explains (same assembly or same chain).
    std::vector<int> group(input.trains.num_neurons(), -1);
    int next = 0;
    for (const auto& a : truth.assemblies) { for (NeuronId n : a.members) group[n] = next; ++next; }
    for (const auto& c : truth.chains) { for (NeuronId n : c.neurons) group[n] = next; ++next; }
    const auto joined = mining::joined_pairs(window);
    const auto explained = std::count_if(joined.begin(), joined.end(), [&](const auto& p) { return group[p.first] >= 0 && group[p.first] == group[p.second]; });
    std::printf("| %s | %zu of %zu | %zu of %zu | %.2f | %zu of %zu | %zu of %zu | %.1f |\n", input.name.c_str(), exact, truth.assemblies.size(),
                exact, found.size(), truth.assemblies.empty() ? 0.0 : static_cast<double>(exact) / static_cast<double>(truth.assemblies.size()),
                links_found, links, static_cast<std::size_t>(explained), joined.size(), pairs == 0 ? 0.0 : z_sum / static_cast<double>(pairs));
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_cofiring: co-firing counts and edge tests per window, CPU and GPU"};
    std::vector<std::string> files;
    std::string scenario = "large";
    std::vector<double> minutes;
    std::uint64_t seed = 1;
    std::size_t neurons = 0;
    std::vector<double> window_s = {0, 10};
    double step_s = 1;
    std::string sync = mining::kDefaultSyncMs;
    std::string intervals = mining::kDefaultIntervalsMs;
    std::string baseline = mining::kDefaultBaselineMs;
    std::vector<unsigned> threads;
    bool no_gpu = false;
    bool no_cpu = false;
    std::size_t null_seeds = 0;
    bool gpu_check = false;
    std::size_t surrogates = 0;
    app.add_option("FILES", files, "spike recordings (any format spikeminer reads)");
    app.add_option("--scenario", scenario, "simulated scenario (large, paper, assemblies, none: independent Poisson neurons)");
    app.add_option("--minutes", minutes, "simulated recordings of these lengths")->check(CLI::PositiveNumber);
    app.add_option("--seed", seed, "simulation seed");
    app.add_option("--neurons", neurons, "neurons of the simulation (0: the scenario's)");
    app.add_option("--window", window_s, "window widths in s (0: the whole recording as one window)");
    app.add_option("--step", step_s, "step in s")->check(CLI::PositiveNumber);
    app.add_option("--sync", sync, "synchrony, ms");
    app.add_option("--intervals", intervals, "directed lags, ms");
    app.add_option("--baseline", baseline, "baseline lags, ms");
    app.add_option("--threads", threads, "CPU thread counts (default: all)");
    app.add_flag("--no-gpu", no_gpu, "CPU only");
    app.add_flag("--no-cpu", no_cpu, "GPU only");
    app.add_option("--null-seeds", null_seeds, "also count edges over this many seeds of independent Poisson neurons");
    app.add_option("--surrogates", surrogates, "with the surrogate edge test: this many dither surrogates (10 ms, seed 1) at most");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: the large scenario at 10, 20 and 60 minutes, 20 null seeds, "
                                           "the recordings in .bench-data/recordings/, and two minutes with the surrogate edge test");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check) {
        minutes = {10, 20, 60};
        null_seeds = 20;
        if (std::filesystem::is_directory(".bench-data/recordings")) {
            for (const auto& entry : std::filesystem::directory_iterator(".bench-data/recordings")) files.push_back(entry.path().string());
            std::sort(files.begin(), files.end());
        }
    }
    if (threads.empty()) threads.push_back(static_cast<unsigned>(omp_get_max_threads()));
    const bool gpu = !no_gpu && !query_devices().devices.empty();
    try {
        std::vector<Input> inputs;
        for (const double m : minutes) inputs.push_back(simulated(scenario, 60 * m, seed, neurons));
        for (const std::string& file : files) inputs.push_back({std::filesystem::path(file).filename().string(), io::read_spikes(file), {}});

        std::vector<std::pair<const Input*, mining::CofiringWindow>> wholes;
        // One table: every input's windows of each width on every backend, with `tested`
        // surrogates in the edge test (0: the analytic test alone).
        const auto table = [&](const std::vector<Input>& of, const std::vector<double>& widths, std::size_t tested) {
            std::printf("| input | spikes | window | windows | backend | threads | s | ms a window | edges (all windows) | same |\n");
            std::printf("|---|---:|---|---:|---|---:|---:|---:|---:|---|\n");
            for (const Input& input : of) {
                const TimeBase& tb = input.trains.time_base();
                mining::CofiringOptions options;
                options.lags = mining::parse_lags(sync, intervals, baseline, tb);
                if (tested != 0) options.test.surrogates = mining::surrogate_edge_test("surrogate", tested, "dither", 10, 1, 1, tb);
                for (const double w : widths) {
                    options.window = tb.from_seconds(w);
                    options.step = w == 0 ? 0 : tb.from_seconds(step_s);
                    std::vector<Outcome> outcomes;
                    const auto row = [&](const Outcome& o, unsigned team) {
                        const bool same = outcomes.empty() || (o.hash == outcomes.front().hash && o.edges == outcomes.front().edges);
                        std::printf("| %s | %zu | %s | %zu | %s | %s | %s | %s | %zu | %s |\n", input.name.c_str(), input.trains.num_spikes(),
                                    w == 0 ? "whole" : (cell(w, "%g") + " s / " + cell(step_s, "%g") + " s").c_str(), o.windows,
                                    o.backend.c_str(), team == 0 ? "-" : std::to_string(team).c_str(), cell(o.seconds, "%.3f").c_str(),
                                    cell(1e3 * o.seconds / static_cast<double>(std::max<std::size_t>(o.windows, 1)), "%.3f").c_str(), o.edges,
                                    same ? "yes" : "NO");
                        std::fflush(stdout);
                        if (!same) throw Error(input.name + ": the windows differ between backends");
                        outcomes.push_back(o);
                    };
                    if (gpu) {
                        options.backend = Backend::Cuda;
                        (void)run(input.trains, options);  // the first run pays for the device's start
                        row(run(input.trains, options), 0);
                    }
                    if (!no_cpu) {
                        for (const unsigned team : threads) {
                            options.backend = Backend::Cpu;
                            options.threads = team;
                            row(run(input.trains, options), team);
                        }
                    }
                    if (w == 0 && tested == 0 && input.truth && !outcomes.empty()) wholes.emplace_back(&input, outcomes.front().first);
                }
            }
        };
        table(inputs, window_s, surrogates);
        // The surrogate edge test: two minutes of the large scenario, enough surrogates
        // that a window's edges can pass q = 0.01 together (N + 1 >= 1 / q).
        std::vector<Input> tested_inputs;
        if (gpu_check) {
            tested_inputs.push_back(simulated("large", 120, seed, 0));
            std::printf("\nWith the surrogate edge test (200 dither surrogates of 10 ms):\n\n");
            table(tested_inputs, {10}, 200);
        }
        if (!wholes.empty()) {
            std::printf("\nRecovery of the ground truth (whole recording, BH q = 0.01; assemblies as `spikeminer assemblies` finds them, "
                        "chains from the edges at the intervals):\n\n");
            std::printf("| input | assemblies found exactly (recall) | of cliques found (precision) | recall | chain links as edges at "
                        "their delays | joined pairs within one assembly or chain | expected z of an assembly pair |\n");
            std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
            for (const auto& [input, window] : wholes) {
                mining::CofiringOptions options;
                options.lags = mining::parse_lags(sync, intervals, baseline, input->trains.time_base());
                print_recovery(*input, window, options, gpu ? Backend::Cuda : Backend::Cpu);
            }
        }
        if (null_seeds != 0) {
            std::size_t with_edges = 0;
            std::size_t edges = 0;
            Input input;
            for (std::uint64_t s = 1; s <= null_seeds; ++s) {
                input = simulated("none", 600, s, 200);
                mining::CofiringOptions options;
                options.lags = mining::parse_lags(sync, intervals, baseline, input.trains.time_base());
                const mining::CofiringWindow window = mining::cofiring_whole_recording(input.trains, options);
                with_edges += window.edges.empty() ? 0 : 1;
                edges += window.edges.size();
            }
            std::printf("\nIndependent Poisson neurons (%s, whole recording, BH q = 0.01), %zu seeds: %zu with any edge, %zu edges in all\n",
                        input.name.c_str(), null_seeds, with_edges, edges);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_cofiring: %s\n", e.what());
        return 1;
    }
    return 0;
}
