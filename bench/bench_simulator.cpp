// Benchmark of the network simulator: spikes generated per second at 64, 1,000 and
// 10,000 neurons (the simulator is CPU only; its cost follows the spikes).
#include "spikeminer/core/error.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <CLI/CLI.hpp>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>

using namespace spikeminer;

namespace {

struct Case {
    const char* name;
    simulator::NetworkConfig config;
};

simulator::NetworkConfig with(simulator::NetworkConfig config, std::size_t neurons, double rate_hz, double duration_s) {
    config.neurons = neurons;
    config.rest_rate_hz = rate_hz;
    config.duration_s = duration_s;
    return config;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_simulator: network Poisson simulator throughput"};
    double scale = 1.0;
    bool gpu_check = false;
    app.add_option("--scale", scale, "multiply every duration (1: 1 h at 64 and 1,000 neurons, 10 min at 10,000)");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's short run (--scale 0.1)");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check) scale = 0.1;

    const Case cases[] = {
        {"paper (4 chains)", with(simulator::scenario("paper"), 64, 20.0, 3600.0 * scale)},
        {"large (chains, assemblies, background)", with(simulator::scenario("large"), 1000, 20.0, 3600.0 * scale)},
        {"unconnected", with(simulator::NetworkConfig{}, 10000, 5.0, 600.0 * scale)},
    };
    std::printf("| network | neurons | rate Hz | duration s | spikes | seconds | Mspikes/s | peak RSS MiB |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    try {
        for (const Case& c : cases) {
            const auto start = std::chrono::steady_clock::now();
            const simulator::Simulation sim = simulator::simulate(c.config);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            rusage usage{};
            getrusage(RUSAGE_SELF, &usage);
            std::printf("| %s | %zu | %.0f | %.0f | %zu | %.2f | %.1f | %.0f |\n", c.name, c.config.neurons,
                        c.config.rest_rate_hz, c.config.duration_s, sim.trains.num_spikes(), seconds,
                        static_cast<double>(sim.trains.num_spikes()) / seconds / 1e6,
                        static_cast<double>(usage.ru_maxrss) / 1024.0);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_simulator: %s\n", e.what());
        return 1;
    }
    return 0;
}
