// Benchmark of the episode counters. Part 1: level-wise mining of a dataset; every
// level's candidates are counted by each counter on the same input (FSM on one thread,
// two-step and prefix on all threads, CountScanWrite, AtomicCompact and prefix on the
// GPU) and the counts are checked to agree. The prefix counters keep the frequent
// episodes' end lists level after level, as mining does. Part 2: one long episode as the stream grows (the papers' case).
// Each row reports events per second against the floor of reading the spike times once.
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>

using namespace spikeminer;

namespace {

using bench::seconds_of;

struct Timing {
    double seconds = -1;  ///< -1: not run
    bool extrapolated = false;
};

std::string cell(const Timing& t) {
    if (t.seconds < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%s%.3g", t.extrapolated ? "~" : "", t.seconds);
    return text;
}

// The counters over one recording, each with its per-neuron times (and device copy)
// prepared and, for the GPU, warmed up, so that a timing measures the counting.
struct Counters {
    mining::EpisodeCounter fsm;
    mining::EpisodeCounter two_step;
    mining::EpisodeCounter prefix_cpu;
    std::unique_ptr<mining::EpisodeCounter> csw;
    std::unique_ptr<mining::EpisodeCounter> atomic;
    std::unique_ptr<mining::EpisodeCounter> gpu_fsm;
    std::unique_ptr<mining::EpisodeCounter> prefix_gpu;

    static mining::CountOptions with(mining::Counter counter, Backend backend) {
        mining::CountOptions options;
        options.counter = counter;
        options.backend = backend;
        return options;
    }

    Counters(const SpikeTrains& trains, bool gpu)
        : fsm(trains, with(mining::Counter::Fsm, Backend::Cpu)),
          two_step(trains, with(mining::Counter::TwoStep, Backend::Cpu)),
          prefix_cpu(trains, with(mining::Counter::Prefix, Backend::Cpu)) {
        if (!gpu) return;
        csw = std::make_unique<mining::EpisodeCounter>(trains, with(mining::Counter::CountScanWrite, Backend::Cuda));
        atomic = std::make_unique<mining::EpisodeCounter>(trains, with(mining::Counter::AtomicCompact, Backend::Cuda));
        gpu_fsm = std::make_unique<mining::EpisodeCounter>(trains, with(mining::Counter::GpuFsm, Backend::Cuda));
        prefix_gpu = std::make_unique<mining::EpisodeCounter>(trains, with(mining::Counter::Prefix, Backend::Cuda));
        const std::vector<mining::Episode> warm_up{mining::Episode{{0, 0}, {mining::Interval{0, 1}}}};
        for (auto* counter : {csw.get(), atomic.get(), gpu_fsm.get(), prefix_gpu.get()}) (void)counter->count(warm_up);
    }
};

// Times one counter on `episodes` (or on its first `sample`, scaled up); the counts must
// equal `expected` when that is already filled, else they fill it.
Timing time_counter(mining::EpisodeCounter& counter, const std::vector<mining::Episode>& episodes,
                    std::vector<std::uint64_t>& expected, std::size_t sample = 0,
                    std::uint64_t keep_at_least = mining::kKeepNone) {
    const bool sampled = sample != 0 && sample < episodes.size();
    const std::vector<mining::Episode> subset =
        sampled ? std::vector<mining::Episode>(episodes.begin(), episodes.begin() + static_cast<std::ptrdiff_t>(sample))
                : episodes;
    mining::CountResult result;
    Timing timing;
    timing.seconds = seconds_of([&] { result = counter.count(subset, keep_at_least); });
    if (!result.note.empty()) throw Error(mining::counter_name(result.counter) + ": " + result.note);
    if (expected.empty()) expected = result.counts;
    for (std::size_t i = 0; i < result.counts.size(); ++i) {
        if (result.counts[i] != expected[i]) {
            throw Error(mining::counter_name(result.counter) + " disagrees on episode " + std::to_string(i) + ": " +
                        std::to_string(result.counts[i]) + " != " + std::to_string(expected[i]));
        }
    }
    if (sampled) {
        timing.seconds *= static_cast<double>(episodes.size()) / static_cast<double>(sample);
        timing.extrapolated = true;
    }
    return timing;
}

// Events every candidate of a batch must look at: the spikes of its neurons.
double batch_events(const SpikeTrains& trains, const std::vector<mining::Episode>& episodes) {
    double events = 0;
    for (const auto& episode : episodes) {
        for (NeuronId n : episode.neurons) events += static_cast<double>(trains.spike_count(n));
    }
    return events;
}

struct Setup {
    bool gpu = false;
    double bandwidth_gbs = 0;  ///< measured device copy bandwidth, for the floor
    std::size_t fsm_sample = 2000;
    double baselines_up_to_s = 600;  ///< FSM and two-step only on recordings up to this long
};

void level_table(const std::string& name, const SpikeTrains& trains, const mining::MiningOptions& base, const Setup& setup) {
    std::printf("\n### %s: %zu neurons, %zu spikes, %.0f s; intervals %zu, threshold %llu, max level %zu\n\n",
                name.c_str(), trains.num_neurons(), trains.num_spikes(),
                trains.time_base().to_seconds(trains.span().length()), base.intervals.size(),
                static_cast<unsigned long long>(base.min_counts.front()), base.max_level);
    const bool baselines = trains.time_base().to_seconds(trains.span().length()) <= setup.baselines_up_to_s;
    if (!baselines) std::printf("(FSM and two-step not run on a recording this long: see the shorter ones)\n\n");
    std::printf("| level | candidates | frequent | fsm 1 thread s | twostep %d threads s | prefix %d threads s | csw s | "
                "atomic s | gpufsm s | prefix GPU s | best CPU / best GPU | prefix GPU Gevents/s |\n",
                omp_get_max_threads(), omp_get_max_threads());
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    // The candidate lists come from one mining run; each level is then timed per counter.
    Counters counters(trains, setup.gpu);
    const mining::MiningOptions& options = base;
    std::vector<mining::Episode> candidates;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) candidates.push_back(mining::Episode{{n}, {}});
    for (std::size_t level = 1; level <= options.max_level && !candidates.empty(); ++level) {
        const std::uint64_t threshold = mining::level_threshold(options, level);
        std::vector<std::uint64_t> expected;
        Timing two_step;
        Timing fsm;
        if (baselines) {
            two_step = time_counter(counters.two_step, candidates, expected);
            fsm = time_counter(counters.fsm, candidates, expected, setup.fsm_sample);
        }
        const Timing prefix_cpu = time_counter(counters.prefix_cpu, candidates, expected, 0, threshold);
        Timing csw;
        Timing atomic;
        Timing gpu_fsm;
        Timing prefix_gpu;
        if (setup.gpu) {
            csw = time_counter(*counters.csw, candidates, expected);
            atomic = time_counter(*counters.atomic, candidates, expected);
            gpu_fsm = time_counter(*counters.gpu_fsm, candidates, expected);
            prefix_gpu = time_counter(*counters.prefix_gpu, candidates, expected, 0, threshold);
        }
        std::vector<mining::Episode> frequent;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (expected[i] >= threshold) frequent.push_back(candidates[i]);
        }
        const double events = batch_events(trains, candidates);
        const double best_cpu = baselines ? std::min(two_step.seconds, prefix_cpu.seconds) : prefix_cpu.seconds;
        const double best_gpu =
            setup.gpu ? std::min({csw.seconds, atomic.seconds, gpu_fsm.seconds, prefix_gpu.seconds}) : -1;
        std::printf("| %zu | %zu | %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", level, candidates.size(),
                    frequent.size(), cell(fsm).c_str(), cell(two_step).c_str(), cell(prefix_cpu).c_str(),
                    cell(csw).c_str(), cell(atomic).c_str(), cell(gpu_fsm).c_str(), cell(prefix_gpu).c_str(),
                    best_gpu > 0 ? std::to_string(best_cpu / best_gpu).substr(0, 6).c_str() : "-",
                    best_gpu > 0 ? std::to_string(events / prefix_gpu.seconds / 1e9).substr(0, 6).c_str() : "-");
        std::fflush(stdout);
        candidates = mining::next_candidates(level, frequent, options.intervals);
    }
    if (setup.bandwidth_gbs > 0) {
        std::printf("\nfloor: reading every spike time once at %.0f GB/s takes %.3f ms a level\n", setup.bandwidth_gbs,
                    8.0 * static_cast<double>(trains.num_spikes()) / (setup.bandwidth_gbs * 1e9) * 1e3);
    }
    for (const Backend backend : {Backend::Cpu, Backend::Cuda}) {
        if (backend == Backend::Cuda && !setup.gpu) continue;
        mining::MiningOptions whole = base;
        whole.count.backend = backend;
        const double end_to_end = seconds_of([&] { (void)mining::mine(trains, whole); });
        std::printf("\nwhole mining run, counter auto (prefix) on %s: %.3f s\n",
                    backend == Backend::Cuda ? "the GPU" : "the CPU", end_to_end);
    }
}

void growth_table(const Setup& setup, const std::vector<double>& durations) {
    std::printf("\n### one 9-node episode (chain 0 of the paper scenario) as the stream grows\n\n");
    std::printf("| duration s | events | count | fsm 1 thread s | twostep %d threads s | prefix %d threads s | csw s | "
                "atomic s | gpufsm s | prefix GPU s | fsm / best GPU | best GPU Gevents/s |\n",
                omp_get_max_threads(), omp_get_max_threads());
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const double duration : durations) {
        simulator::NetworkConfig config = simulator::scenario("paper");
        config.duration_s = duration;
        const SpikeTrains trains = simulator::simulate(config).trains;
        mining::Episode chain;
        for (NeuronId n = 0; n < 9; ++n) chain.neurons.push_back(n);
        for (const auto& delay : config.chains[0].delays) {
            chain.gaps.push_back(mining::Interval{(delay.min - 1) * 1000, delay.max * 1000});  // (d-1, d] ms at 1 us ticks
        }
        const std::vector<mining::Episode> one{chain};
        Counters counters(trains, setup.gpu);
        std::vector<std::uint64_t> expected;
        const Timing fsm = time_counter(counters.fsm, one, expected);
        const Timing two_step = time_counter(counters.two_step, one, expected);
        const Timing prefix_cpu = time_counter(counters.prefix_cpu, one, expected);
        Timing csw;
        Timing atomic;
        Timing gpu_fsm;
        Timing prefix_gpu;
        if (setup.gpu) {
            csw = time_counter(*counters.csw, one, expected);
            atomic = time_counter(*counters.atomic, one, expected);
            gpu_fsm = time_counter(*counters.gpu_fsm, one, expected);
            prefix_gpu = time_counter(*counters.prefix_gpu, one, expected);
        }
        const double best_gpu =
            setup.gpu ? std::min({csw.seconds, atomic.seconds, gpu_fsm.seconds, prefix_gpu.seconds}) : -1;
        const double events = static_cast<double>(trains.num_spikes());
        std::printf("| %.0f | %zu | %llu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", duration, trains.num_spikes(),
                    static_cast<unsigned long long>(expected[0]), cell(fsm).c_str(), cell(two_step).c_str(),
                    cell(prefix_cpu).c_str(), cell(csw).c_str(), cell(atomic).c_str(), cell(gpu_fsm).c_str(),
                    cell(prefix_gpu).c_str(),
                    best_gpu > 0 ? std::to_string(fsm.seconds / best_gpu).substr(0, 6).c_str() : "-",
                    best_gpu > 0 ? std::to_string(events / best_gpu / 1e9).substr(0, 6).c_str() : "-");
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_mining: episode counters, CPU and GPU on the same input"};
    std::vector<double> durations{20, 300};
    std::vector<double> growth{60, 600};
    std::string recording;
    double bandwidth = 0;
    bool gpu_check = false;
    Setup setup;
    app.add_option("--durations", durations, "paper-scenario durations (s) for the level tables")->delimiter(',');
    app.add_option("--growth", growth, "durations (s) for the single-episode table")->delimiter(',');
    app.add_option("--recording", recording, "also mine this recording (levels 1-2)");
    app.add_option("--bandwidth", bandwidth, "device copy bandwidth in GB/s for the floor (default: measured by the self-test)");
    app.add_option("--baselines-up-to", setup.baselines_up_to_s, "run FSM and two-step on level tables of recordings up to this many seconds (default 600)");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: 20 s, 300 s and 1 h (FSM and two-step up to 30 min); growth to 2 h; the retina recording if present");
    CLI11_PARSE(app, argc, argv);

    try {
        const DeviceReport devices = query_devices();
        setup.gpu = !devices.devices.empty();
        if (gpu_check) {
            durations = {20, 300, 3600};
            setup.baselines_up_to_s = 1800;  // the retina's 30 minutes, not the hour
            growth = {600, 1800, 3600, 7200};
            if (recording.empty()) recording = ".bench-data/Maccione2014_P10_8Dec11_spont3_SpkTs_bursts_filtered.h5";
        }
        if (setup.gpu && bandwidth == 0) {
            bandwidth = run_device_self_test(0, std::size_t{1} << 26).bandwidth_gbs;  // 0 when it failed
        }
        setup.bandwidth_gbs = bandwidth;
        std::printf("bench_mining: %s, %d CPU threads%s\n", setup.gpu ? devices.devices[0].name.c_str() : "no GPU",
                    omp_get_max_threads(), bandwidth > 0 ? (", device scan bandwidth " + std::to_string(static_cast<int>(bandwidth)) + " GB/s").c_str() : "");
        for (const double duration : durations) {
            simulator::NetworkConfig config = simulator::scenario("paper");
            config.duration_s = duration;
            const SpikeTrains trains = simulator::simulate(config).trains;
            mining::MiningOptions options;
            options.intervals = {{0, 3000}, {3000, 5000}, {5000, 8000}};
            options.min_counts = {mining::count_for_rate(5.0, trains)};
            options.max_level = 9;
            level_table("paper scenario, " + std::to_string(static_cast<int>(duration)) + " s", trains, options, setup);
        }
        if (!recording.empty() && std::ifstream(recording).good()) {
            const SpikeTrains trains = io::read_spikes(recording);
            mining::MiningOptions options;
            options.intervals = {{0, 5000}, {5000, 10000}};
            options.min_counts = {mining::count_for_rate(0.5, trains), mining::count_for_rate(0.1, trains)};
            options.max_level = 2;
            level_table(recording, trains, options, setup);
        }
        growth_table(setup, growth);
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_mining: %s\n", e.what());
        return 1;
    }
    return 0;
}
