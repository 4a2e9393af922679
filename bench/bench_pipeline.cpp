// Benchmark of the whole pipeline (`spikeminer run`): the same recording on the GPU and on
// the CPU (each thread count asked for) in one run, and with a GPU also under auto, as a
// user's run takes it (and with --devices, over several GPUs); the time of every stage
// (reading the file included) and of each mining level, the peak memory, and where the backends' windows, assemblies and events
// first differ, if they do. Simulated recordings are written to a file first (with
// --gzip-csv also as gzip CSV, run under auto), so that
// reading is timed as a user's run reads it.
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/simulation_io.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#include "bench_timing.hpp"
#include "pipeline_tables.hpp"

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

using namespace spikeminer;

namespace {

using bench::cell;
using bench::seconds_of;

// The peak resident memory since the last reset_peak(), from Linux's VmHWM.
double peak_mib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmHWM:  123456 kB"
    }
    return 0;
}

// Writing 5 to clear_refs sets VmHWM back to the present resident size (Linux 4.0 on), so
// each run's peak is its own, once malloc has given back what earlier runs freed.
void reset_peak() {
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

struct Run {
    double read_s = 0;
    pipeline::PipelineResult result;
    double total_s = 0;
    std::size_t neurons = 0;
    std::size_t spikes = 0;
    double duration_s = 0;
};

Run run(const pipeline::RunConfig& config) {
    Run out;
    reset_peak();
    pipeline::Input input;
    out.read_s = seconds_of([&] { input = pipeline::load_input(config, nullptr); });
    const double work = seconds_of([&] { out.result = pipeline::run_pipeline(input, config, nullptr); });
    out.total_s = out.read_s + work;
    const SpikeTrains& trains = input.recording.trains;
    out.neurons = trains.num_neurons();
    out.spikes = trains.num_spikes();
    out.duration_s = trains.time_base().to_seconds(trains.span().length());
    return out;
}

// Where two runs differ first ("" when they agree).
std::string difference(const pipeline::PipelineResult& a, const pipeline::PipelineResult& b) {
    if (a.episodes.episodes.size() != b.episodes.episodes.size()) return "the number of episodes";
    if (a.windows.size() != b.windows.size()) return "the number of windows";
    for (std::size_t w = 0; w < a.windows.size(); ++w) {
        const pipeline::WindowSummary& x = a.windows[w];
        const pipeline::WindowSummary& y = b.windows[w];
        const std::string at = "window " + std::to_string(w) + ": ";
        if (x.edges != y.edges || x.inserted != y.inserted || x.erased != y.erased || x.updated != y.updated) return at + "edges";
        if (x.components != y.components || x.largest_component != y.largest_component) return at + "components";
        if (x.most_central != y.most_central) return at + "most central neuron";
        if (x.cliques != y.cliques) return at + "cliques";
        if (x.assemblies != y.assemblies) return at + "assemblies";
    }
    if (a.changes != b.changes) return "edge changes";
    if (a.assemblies != b.assemblies) return "assemblies";
    if (a.events != b.events) return "events";
    return {};
}

// Each mining level: candidates, those that beat chance, frequent, seconds, counter and backend.
std::string levels(const mining::MiningResult& episodes) {
    std::string out;
    char text[200];
    for (const mining::LevelReport& l : episodes.levels) {
        const std::string counted = l.beat_chance ? std::to_string(*l.beat_chance) + " beat chance" : std::to_string(l.candidates - l.bounded_out) + " counted";
        std::snprintf(text, sizeof text, "%slevel %zu: %zu candidates (%s), %zu frequent, %.2f s (%s, %s)", out.empty() ? "" : "; ",
                      l.level, l.candidates, counted.c_str(), l.frequent, l.seconds, mining::counter_name(l.counter).c_str(), backend_name(l.backend).c_str());
        out += text;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_pipeline: the whole pipeline, stage by stage, on the GPU and the CPU"};
    std::vector<std::string> files;
    std::vector<double> minutes;
    std::string scenario = "large";
    double window_s = 0;  // auto, as run
    double step_s = 0;
    std::string min_count = "auto";
    std::vector<unsigned> threads;
    bool no_cpu = false;
    bool gpu_check = false;
    std::vector<int> devices;
    std::string recordings = ".bench-data/recordings";
    double recovery_seconds = 300;
    std::size_t recovery_seeds = 5;
    bool assembly_recovery = false;
    std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    app.add_option("FILES", files, "recordings");
    app.add_option("--minutes", minutes, "simulated recordings of the scenario, this long")->check(CLI::PositiveNumber);
    app.add_option("--scenario", scenario, "the simulated scenario (default large)");
    app.add_option("--window", window_s, "co-firing window, s (default auto, as run)");
    app.add_option("--step", step_s, "co-firing step, s (default auto, as run)");
    app.add_option("--min-count", min_count, "the episodes' threshold (auto, or counts)");
    app.add_option("--threads", threads, "CPU thread counts (default: all)");
    app.add_flag("--no-cpu", no_cpu, "GPU only");
    app.add_option("--devices", devices, "also auto with the work shared over these GPUs, e.g. 0,1 (--gpu-check: every GPU, when there are two or more)")
        ->delimiter(',')->allow_extra_args(false);
    app.add_option("--recordings", recordings, "every recording of this folder too, at run's defaults (default .bench-data/recordings, "
                                               "where the real recordings are copied; none: no folder)");
    app.add_option("--recovery-seconds", recovery_seconds, "the simulations whose episodes are checked against what was embedded "
                                                           "are this long (0: none)")->check(CLI::NonNegativeNumber);
    app.add_option("--recovery-seeds", recovery_seeds, "... on this many seeds each (independent neurons on four times as many)");
    app.add_flag("--assemblies", assembly_recovery,
                 "the assemblies' recovery, spikeminer run against the ICA peer (bench/ica_assemblies.py): demo and assemblies "
                 "scenarios on 5 seeds, the large scenario at 20 minutes, 200 independent neurons for 10 minutes on 20 seeds");
    app.add_option("--python", python, "the Python with numpy and scikit-learn that runs the ICA peer");
    bool gzip_csv = false;
    app.add_flag("--gzip-csv", gzip_csv, "also each simulated recording as gzip CSV (as convert writes it), run under auto");
    app.add_flag("--gpu-check", gpu_check, "the GPU machine's run: the large scenario at 60 minutes (also as gzip CSV), the recordings "
                                           "and both recoveries");
    CLI11_PARSE(app, argc, argv);
    if (gpu_check) {
        minutes = {60};
        gzip_csv = true;
    }
    if (recordings != "none" && std::filesystem::is_directory(recordings)) {
        std::vector<std::string> found;
        for (const auto& entry : std::filesystem::directory_iterator(recordings)) found.push_back(entry.path().string());
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    if (threads.empty()) threads.push_back(static_cast<unsigned>(omp_get_max_threads()));
    const std::size_t visible = query_devices().devices.size();
    const bool gpu = visible > 0;
    if (gpu_check && devices.empty() && visible > 1) {
        for (std::size_t d = 0; d < visible; ++d) devices.push_back(static_cast<int>(d));
    }
    bool differ = false;
    std::vector<bench::RecordingRow> recorded;
    std::set<std::string> gzip_files;  // the simulated recordings' gzip CSV copies
    try {
        if (gpu) {  // the device's start, paid once before any timed run
            pipeline::RunConfig warm;
            warm.simulate = "demo";
            warm.backend = "gpu";
            (void)run(warm);
        }
        const std::filesystem::path scratch = std::filesystem::temp_directory_path() / "bench_pipeline";
        std::filesystem::create_directories(scratch);
        for (const double m : minutes) {
            simulator::NetworkConfig config = simulator::scenario(scenario);
            config.duration_s = 60 * m;
            const std::string path = (scratch / (scenario + "-" + std::to_string(static_cast<int>(m)) + "min.h5")).string();
            if (!std::filesystem::exists(path)) {
                simulator::Simulation simulation = simulator::simulate(config);
                simulation.truth.config_json = simulator::to_json(config);
                io::write_simulation(path, simulation, io::SpikeFormat::Spikeminer);
            }
            files.insert(files.begin(), path);
            if (gzip_csv) {
                const std::string packed = path.substr(0, path.size() - 3) + ".csv.gz";
                if (!std::filesystem::exists(packed)) {
                    const SpikeTrains trains = io::read_spikes(path);
                    const double written = seconds_of([&] { io::write_spikes(packed, trains, io::SpikeFormat::Csv); });
                    std::printf("%s written in %.2f s (%ju bytes)\n\n", std::filesystem::path(packed).filename().string().c_str(), written,
                                static_cast<std::uintmax_t>(std::filesystem::file_size(packed)));
                }
                files.insert(files.begin() + 1, packed);
                gzip_files.insert(packed);
            }
        }
        std::printf("| input | backend | threads | read s | episodes s | members s | co-firing s | graph updates s | components and PageRank s | "
                    "cliques s | tracking s | total s | windows | assemblies | peak MiB | same |\n");
        std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (const std::string& file : files) {
            pipeline::RunConfig config;
            config.input = file;
            config.window_s = window_s;
            config.step_s = step_s;
            config.mining_min_count = min_count;
            std::vector<pipeline::PipelineResult> results;
            // A gzip CSV's run is the user's run alone, and is not compared: a table's
            // recording ends at its last spike, the HDF5 file's at its stated span.
            const bool packed = gzip_files.count(file) != 0;
            const auto row = [&](const Run& r, const std::string& backend, unsigned team) {
                std::map<std::string, double> stage;
                for (const auto& s : r.result.stages) stage[s.stage] = s.seconds;
                const std::string differs = results.empty() ? "" : difference(results.front(), r.result);
                std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %zu | %zu | %.0f | %s |\n",
                            std::filesystem::path(file).filename().string().c_str(), backend.c_str(), team == 0 ? "-" : std::to_string(team).c_str(),
                            cell(r.read_s, "%.2f").c_str(), cell(stage["episodes"], "%.2f").c_str(),
                            cell(stage["assemblies' members"], "%.2f").c_str(), cell(stage["co-firing"], "%.2f").c_str(),
                            cell(stage["graph updates"], "%.3f").c_str(), cell(stage["components and PageRank"], "%.3f").c_str(),
                            cell(stage["cliques"], "%.3f").c_str(), cell(stage["tracking and activations"], "%.3f").c_str(),
                            cell(r.total_s, "%.2f").c_str(), r.result.windows.size(), r.result.assemblies.size(), peak_mib(),
                            packed ? "-" : differs.empty() ? "yes" : ("NO: " + differs).c_str());
                std::printf("|   episodes (%s) | %s ||||||||||||||\n", backend.c_str(), levels(r.result.episodes).c_str());
                std::fflush(stdout);
                differ = differ || !differs.empty();
                results.push_back(r.result);
                recorded.push_back({std::filesystem::path(file).filename().string(), backend + (team == 0 ? "" : ", " + std::to_string(team) + " threads"),
                                    r.neurons, r.spikes, r.duration_s, r.read_s, r.total_s, peak_mib(), r.result});
            };
            if (packed) {
                config.backend = "auto";
                row(run(config), "auto", 0);
                continue;
            }
            if (gpu) {  // auto as a user's run on this machine takes it, and every stage on the GPU
                config.backend = "auto";
                row(run(config), "auto", 0);
                if (!devices.empty()) {
                    std::string names;
                    for (const int d : devices) names += (names.empty() ? "" : ",") + std::to_string(d);
                    config.devices = devices;
                    row(run(config), "auto, devices " + names, 0);
                    config.devices.clear();
                }
                config.backend = "gpu";
                row(run(config), "gpu", 0);
            }
            if (!no_cpu) {
                for (const unsigned team : threads) {
                    config.backend = "cpu";
                    config.threads = team;
                    row(run(config), "cpu", team);
                }
            }
            if (!results.empty() && results.front().recovery) {
                const pipeline::Recovery& r = *results.front().recovery;
                std::printf("|   recovery | chains recall %.2f, precision %.2f; assemblies recall %.2f (%zu of %zu stretches), precision %.2f (%zu "
                            "of %zu); span error %.1f s ||||||||||||||\n",
                            r.chain_recall(), r.chain_precision(), r.assembly_recall(), r.assembly_periods_found, r.assembly_periods,
                            r.assembly_precision(), r.assemblies_true, r.assemblies_tracked, r.span_error_s);
            }
        }
        bench::print_recordings(recorded);
        if (recovery_seconds > 0 && recovery_seeds > 0) bench::print_recovery(recovery_seconds, recovery_seeds, gpu ? "auto" : "cpu");
        if (assembly_recovery || gpu_check) {
            const std::string script = (std::filesystem::path(__FILE__).parent_path() / "ica_assemblies.py").string();
            bench::print_assembly_recovery({{"demo", 240, 0, 5},
                                            {"assemblies", 300, 0, 5},
                                            {"dynamics", 300, 0, 5},
                                            {"large", 1200, 0, 1},
                                            {"none", 600, 200, 20}},
                                           python, std::filesystem::exists(script) ? script : "bench/ica_assemblies.py", gpu ? "auto" : "cpu");
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_pipeline: %s\n", e.what());
        return 1;
    }
    if (differ) std::fprintf(stderr, "bench_pipeline: the backends differ (the rows marked NO)\n");
    return differ ? 1 : 0;
}
