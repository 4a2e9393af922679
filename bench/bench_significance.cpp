// Benchmark of significance testing (mining/significance.hpp): every frequent level-2
// episode of a recording (the candidates `mine --significance` tests at level 2) counted in
// up to N surrogates, with the sequential stop, by the CPU (all threads) and by the GPU on
// the same input; the p-values must agree. Datasets: the paper scenario (64 neurons) for
// --duration seconds, and a recording given with --recording (the 794-neuron retina).
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/mining/mine.hpp"
#include "spikeminer/mining/significance.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include "bench_timing.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <cstdio>
#include <fstream>
#include <numeric>

using namespace spikeminer;

namespace {

using bench::cell;
using bench::seconds_of;

struct Setup {
    bool gpu = false;
    mining::SignificanceOptions significance;
};

// One row: the frequent level-2 episodes of `trains` at `rate_hz`, tested on each backend.
void row(const std::string& name, const SpikeTrains& trains, double rate_hz, const Setup& setup) {
    mining::MiningOptions mining;
    mining.intervals = {{0, 5000}, {5000, 10000}};  // in ticks of 1 us: 0-5 ms and 5-10 ms
    mining.min_counts = {mining::count_for_rate(rate_hz, trains)};
    mining.max_level = 2;
    const mining::MiningResult mined = mining::mine(trains, mining);
    std::vector<mining::Episode> episodes;
    std::vector<std::uint64_t> counts;
    for (const auto& found : mined.episodes) {
        if (found.episode.size() != 2) continue;
        episodes.push_back(found.episode);
        counts.push_back(found.count);
    }
    std::vector<mining::SurrogateSignificance> cpu;
    std::vector<mining::SurrogateSignificance> gpu;
    mining::CountOptions count;
    double gpu_s = -1;
    if (setup.gpu) {  // first: the quicker one's time shows even when a time limit stops the CPU
        count.backend = Backend::Cuda;
        gpu_s = seconds_of([&] { gpu = mining::test_episodes(trains, episodes, counts, setup.significance, count); });
        std::fprintf(stderr, "%s: GPU %.2f s\n", name.c_str(), gpu_s);
    }
    count.backend = Backend::Cpu;
    const double cpu_s = seconds_of([&] { cpu = mining::test_episodes(trains, episodes, counts, setup.significance, count); });
    if (setup.gpu) {
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            if (gpu[i].p != cpu[i].p || gpu[i].surrogates_used != cpu[i].surrogates_used) {
                throw Error(name + ": the GPU's p-value of episode " + std::to_string(i) + " differs from the CPU's");
            }
        }
    }
    const std::size_t counted = std::accumulate(cpu.begin(), cpu.end(), std::size_t{0},
                                                [](std::size_t sum, const auto& r) { return sum + r.surrogates_used; });
    const auto significant = std::count_if(cpu.begin(), cpu.end(), [](const auto& r) { return r.significant; });
    std::printf("| %s | %zu | %zu | %zu | %zu | %zu | %td | %s | %s | %s |\n", name.c_str(), trains.num_neurons(),
                trains.num_spikes(), episodes.size(), setup.significance.surrogates, counted, significant,
                cell(cpu_s, "%.1f").c_str(), cell(gpu_s, "%.2f").c_str(), gpu_s > 0 ? cell(cpu_s / gpu_s, "%.1f").c_str() : "-");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_significance: surrogate tests of the level-2 episodes, CPU and GPU on the same input"};
    double duration = 3600;
    std::string recording;
    std::string kind = "dither";
    double dither_ms = 5;
    bool gpu_check = false;
    Setup setup;
    app.add_option("--duration", duration, "seconds of the paper scenario (default 3600; 0 skips it)");
    app.add_option("--recording", recording, "also test this recording's level-2 episodes");
    app.add_option("--surrogates", setup.significance.surrogates, "N (default 1000)");
    app.add_option("--surrogate", kind, "dither, isi or shift (default dither)");
    app.add_option("--dither-ms", dither_ms, "the surrogates' largest move (default 5 ms)");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: the paper hour and the retina recording if present");
    CLI11_PARSE(app, argc, argv);
    try {
        setup.significance.surrogate = {mining::parse_surrogate(kind), static_cast<Tick>(dither_ms * 1000), 1000, 1};
        const DeviceReport devices = query_devices();
        setup.gpu = !devices.devices.empty();
        if (gpu_check && recording.empty()) recording = ".bench-data/Maccione2014_P10_8Dec11_spont3_SpkTs_bursts_filtered.h5";
        std::printf("bench_significance: %s, %d CPU threads; %zu surrogates (%s, +-%g ms, 1 ms refractory), stop after %zu "
                    "exceedances, BH at q = %g\n\n",
                    setup.gpu ? devices.devices[0].name.c_str() : "no GPU", omp_get_max_threads(), setup.significance.surrogates,
                    kind.c_str(), dither_ms, setup.significance.enough_exceedances, setup.significance.q);
        std::printf("| recording | neurons | spikes | episodes tested | N | surrogate counts | significant | CPU s | GPU s | CPU / GPU |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        if (duration > 0) {
            simulator::NetworkConfig config = simulator::scenario("paper");
            config.duration_s = duration;
            row("paper scenario, " + std::to_string(static_cast<int>(duration)) + " s", simulator::simulate(config).trains, 5.0, setup);
        }
        if (!recording.empty() && std::ifstream(recording).good()) row(recording, io::read_spikes(recording), 0.05, setup);
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_significance: %s\n", e.what());
        return 1;
    }
    return 0;
}
