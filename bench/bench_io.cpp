// Benchmark of the spike readers and writers: for each format, write and read back N
// random spikes and report time, throughput and the reader's peak memory per spike
// (each read runs in a child process so that its peak memory is its own).
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <CLI/CLI.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

using namespace spikeminer;

namespace {

SpikeTrains random_trains(std::size_t spikes, std::size_t neurons) {
    std::mt19937_64 random(42);
    std::uniform_int_distribution<NeuronId> neuron(0, static_cast<NeuronId>(neurons - 1));
    // Exponential gaps at the requested mean rate: a sorted stream, as recordings are.
    std::exponential_distribution<double> gap(1.0);
    std::vector<Spike> list(spikes);
    double t = 0;
    for (auto& s : list) {
        t += gap(random) * 50.0;  // 50 µs mean gap: 20 kHz of spikes across the population
        s = Spike{static_cast<Tick>(t), neuron(random)};
    }
    NeuronTable table;
    for (std::size_t n = 0; n < neurons; ++n) table.labels.push_back(std::to_string(n));
    return SpikeTrains::from_spikes(std::move(list), std::move(table), TimeBase{});
}

struct ReadResult {
    double seconds = -1;
    double peak_mib = 0;
    std::size_t spikes = 0;
};

// Reads in a fresh process (this program with --read), so that its peak memory is the
// reader's alone and not the generator's pages inherited through fork.
ReadResult read_in_child(const std::string& path) {
    const std::string command = "'/proc/" + std::to_string(getpid()) + "/exe' --read '" + path + "'";
    std::FILE* child = popen(command.c_str(), "r");
    if (child == nullptr) throw Error("cannot start the reader process");
    ReadResult result;
    double max_rss_kib = 0;
    const int fields = std::fscanf(child, "%lf %lf %zu", &result.seconds, &max_rss_kib, &result.spikes);
    if (pclose(child) != 0 || fields != 3) throw Error(path + ": the reader process failed");
    result.peak_mib = max_rss_kib / 1024.0;
    return result;
}

int read_and_report(const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    const SpikeTrains trains = io::read_spikes(path);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%f %ld %zu\n", seconds, usage.ru_maxrss, trains.num_spikes());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_io: spike file read/write throughput and peak memory"};
    std::size_t spikes = 10'000'000;
    std::size_t neurons = 1000;
    std::vector<std::string> formats{"spikeminer", "csv", "csv.gz", "nwb"};
    std::string folder = std::filesystem::temp_directory_path().string();
    bool gpu_check = false;
    std::string read_path;
    app.add_option("--spikes", spikes, "spikes to write and read");
    app.add_option("--neurons", neurons, "neurons");
    app.add_option("--formats", formats, "formats: spikeminer, csv, csv.gz, text, nwb, waverepo")->delimiter(',');
    app.add_option("--dir", folder, "folder for the files");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's short run: 10^7 spikes, spikeminer and csv");
    app.add_option("--read", read_path, "internal: read one file and print seconds, peak KiB and spikes");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check) {
        spikes = 10'000'000;
        formats = {"spikeminer", "csv"};
    }

    try {
        if (!read_path.empty()) return read_and_report(read_path);
        const auto start = std::chrono::steady_clock::now();
        const SpikeTrains trains = random_trains(spikes, neurons);
        const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("bench_io: %zu spikes, %zu neurons (generated and indexed in %.2f s)\n\n", spikes, neurons, build_s);
        std::printf("| format | file MiB | write s | read s | read Mspikes/s | read peak MiB | peak bytes/spike |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
        for (const std::string& name : formats) {
            const bool gz = name.ends_with(".gz");
            const io::SpikeFormat format = io::parse_spike_format(gz ? name.substr(0, name.size() - 3) : name);
            const std::string path = folder + "/bench_io." + name + (format == io::SpikeFormat::Spikeminer ? ".h5" : "");
            const auto write_start = std::chrono::steady_clock::now();
            io::write_spikes(path, trains, format);
            const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
            const double mib = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
            const ReadResult read = read_in_child(path);
            std::filesystem::remove(path);
            if (read.spikes != trains.num_spikes()) throw Error(name + ": read back " + std::to_string(read.spikes) + " spikes");
            std::printf("| %s | %.1f | %.2f | %.2f | %.1f | %.0f | %.1f |\n", name.c_str(), mib, write_s, read.seconds,
                        static_cast<double>(spikes) / read.seconds / 1e6, read.peak_mib,
                        read.peak_mib * (1 << 20) / static_cast<double>(spikes));
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_io: %s\n", e.what());
        return 1;
    }
    return 0;
}
