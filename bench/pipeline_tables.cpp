#include "pipeline_tables.hpp"

#include "bench_timing.hpp"

#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace spikeminer::bench {
namespace {

// "120 / 80 / 10 / 0": episodes of 2, 3, 4 and 5 neurons.
std::string by_length(const mining::MiningResult& episodes) {
    std::vector<std::size_t> count(6, 0);
    for (const auto& f : episodes.episodes) {
        if (f.episode.size() >= 2) ++count[std::min<std::size_t>(f.episode.size(), 5)];
    }
    return std::to_string(count[2]) + " / " + std::to_string(count[3]) + " / " + std::to_string(count[4]) + " / " +
           std::to_string(count[5]);
}

// Seeds for the recovery table: none of them is used by a test.
constexpr std::uint64_t kFirstSeed = 101;

}  // namespace

void print_recordings(const std::vector<RecordingRow>& rows) {
    std::printf("\n| recording | backend | neurons | spikes | s | episodes of 2 / 3 / 4 / 5 | most edges | assemblies | read s | "
                "episodes s | co-firing s | graphs and cliques s | total s | peak MiB |\n");
    std::printf("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const RecordingRow& row : rows) {
        std::map<std::string, double> stage;
        for (const auto& s : row.result.stages) stage[s.stage] = s.seconds;
        std::size_t edges = 0;
        for (const auto& w : row.result.windows) edges = std::max(edges, w.edges);
        const double graphs = stage["graph updates"] + stage["components and PageRank"] + stage["cliques"] + stage["tracking and activations"];
        std::printf("| %s | %s | %zu | %zu | %.0f | %s%s | %zu | %zu | %s | %s | %s | %s | %s | %.0f |\n", row.name.c_str(), row.backend.c_str(),
                    row.neurons, row.spikes, row.duration_s, by_length(row.result.episodes).c_str(),
                    row.result.episodes.stopped.empty() ? "" : " (stopped)", edges, row.result.assemblies.size(), cell(row.read_s, "%.2f").c_str(),
                    cell(stage["episodes"], "%.2f").c_str(), cell(stage["co-firing"], "%.2f").c_str(), cell(graphs, "%.2f").c_str(),
                    cell(row.total_s, "%.2f").c_str(), row.peak_mib);
    }
}

void print_recovery(double seconds, std::size_t seeds, const std::string& backend) {
    std::printf("\n| scenario | s | seeds | chain links found | episodes of 3+ embedded | chain recall | precision (3+) | "
                "runs with an episode of 2+ | episodes of 2+ | mining s |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string scenario : {"paper", "assemblies", "demo", "none"}) {
        const std::size_t runs = scenario == "none" ? 4 * seeds : seeds;
        std::size_t links = 0, found = 0, longer = 0, longer_true = 0, with_any = 0, any = 0;
        double mining_s = 0;
        for (std::size_t k = 0; k < runs; ++k) {
            pipeline::RunConfig config;
            config.simulate = scenario;
            config.seed = kFirstSeed + k;
            config.duration_s = seconds;
            config.backend = backend;
            const pipeline::Input input = pipeline::load_input(config, nullptr);
            pipeline::PipelineResult result;
            mining_s += seconds_of([&] { result.episodes = pipeline::mine_episodes(input.recording.trains, config, nullptr); });
            const pipeline::Recovery r = pipeline::recover(*input.recording.truth, result, input.recording.trains.time_base());
            links += r.chain_links;
            found += r.chain_links_found;
            longer += r.long_episodes;
            longer_true += r.long_episodes_true;
            std::size_t of_two = 0;
            for (const auto& f : result.episodes.episodes) of_two += f.episode.size() >= 2 ? 1 : 0;
            any += of_two;
            with_any += of_two > 0 ? 1 : 0;
        }
        const auto share = [](std::size_t part, std::size_t whole) {
            return whole == 0 ? std::string("-") : cell(static_cast<double>(part) / static_cast<double>(whole), "%.3f");
        };
        std::printf("| %s | %.0f | %zu-%zu | %zu of %zu | %zu of %zu | %s | %s | %zu of %zu | %zu | %.2f |\n", scenario.c_str(), seconds,
                    static_cast<std::size_t>(kFirstSeed), static_cast<std::size_t>(kFirstSeed + runs - 1), found, links, longer_true, longer,
                    share(found, links).c_str(), share(longer_true, longer).c_str(), with_any, runs, any, mining_s);
        std::fflush(stdout);
    }
}

namespace {

// What one method found over a scenario's seeds.
struct Tally {
    std::size_t periods = 0, found = 0, tracked = 0, true_tracked = 0, runs_with_any = 0, events = 0, events_found = 0;
    double span_error_s = 0, seconds = 0;
    void add(const pipeline::Recovery& r, double s) {
        events += r.events;
        events_found += r.events_found;
        periods += r.assembly_periods;
        found += r.assembly_periods_found;
        tracked += r.assemblies_tracked;
        true_tracked += r.assemblies_true;
        runs_with_any += r.assemblies_tracked > 0 ? 1 : 0;
        span_error_s += r.span_error_s * static_cast<double>(r.assembly_periods_found);
        seconds += s;
    }
};

// The ICA peer's assemblies for `input`, as tracked assemblies the recovery can score: one
// span each (the method's first to last active bin), or the recording's.
std::vector<pipeline::Assembly> ica_assemblies(const pipeline::Input& input, const std::string& python, const std::string& script,
                                               double& seconds) {
    const SpikeTrains& trains = input.recording.trains;
    const std::filesystem::path csv = std::filesystem::temp_directory_path() / "bench_pipeline_ica.csv";
    io::write_spikes(csv.string(), trains, io::SpikeFormat::Csv);
    const std::string command = python + " " + script + " " + csv.string() + " --neurons " + std::to_string(trains.num_neurons());
    std::string out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char block[4096];
        for (std::size_t n; (n = std::fread(block, 1, sizeof block, pipe)) > 0;) out.append(block, n);
        if (pclose(pipe) != 0) throw Error("the ICA peer failed: " + command);
    }
    const auto json = nlohmann::json::parse(out);
    seconds = json["seconds"].get<double>();
    const TimeBase& tb = trains.time_base();
    std::vector<pipeline::Assembly> found;
    for (const auto& a : json["assemblies"]) {
        pipeline::Assembly x;
        for (const auto& m : a["members"]) x.members.push_back(m.get<NeuronId>());
        x.span = a.contains("start_s") ? TimeSpan{tb.from_seconds(a["start_s"].get<double>()), tb.from_seconds(a["end_s"].get<double>())}
                                       : trains.span();
        found.push_back(std::move(x));
    }
    return found;
}

std::string row_of(const Tally& t, std::size_t runs) {
    const auto share = [](std::size_t part, std::size_t whole) {
        return whole == 0 ? std::string("-") : cell(static_cast<double>(part) / static_cast<double>(whole), "%.2f");
    };
    char text[320];
    std::snprintf(text, sizeof text, "%zu of %zu | %s | %zu of %zu | %s | %s | %s | %zu of %zu | %.1f", t.found, t.periods,
                  share(t.found, t.periods).c_str(), t.true_tracked, t.tracked, share(t.true_tracked, t.tracked).c_str(),
                  t.found == 0 ? "-" : cell(t.span_error_s / static_cast<double>(t.found), "%.1f").c_str(),
                  t.events == 0 ? "-" : (std::to_string(t.events_found) + " of " + std::to_string(t.events)).c_str(), t.runs_with_any, runs,
                  t.seconds);
    return text;
}

}  // namespace

void print_assembly_recovery(const std::vector<AssemblyScenario>& scenarios, const std::string& python, const std::string& script,
                             const std::string& backend) {
    // The peer runs where its Python has numpy and scikit-learn (not on the GPU machine).
    const bool peer_runs = std::system((python + " -c 'import numpy, sklearn' 2>/dev/null").c_str()) == 0;
    if (!peer_runs) std::printf("\n(the ICA peer is not run: %s has no numpy and scikit-learn)\n", python.c_str());
    std::printf("\n| scenario | s | neurons | seeds | method | stretches found | recall | assemblies that are embedded | precision | "
                "span error s | events found | runs reporting any | seconds |\n");
    std::printf("|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const AssemblyScenario& scenario : scenarios) {
        Tally ours, peer;
        std::size_t neurons = 0;
        for (std::size_t k = 0; k < scenario.seeds; ++k) {
            pipeline::RunConfig config;
            config.simulate = scenario.name;
            config.seed = kFirstSeed + k;
            config.duration_s = scenario.seconds;
            config.backend = backend;
            simulator::NetworkConfig network = simulator::scenario(scenario.name);
            pipeline::Input input;
            if (scenario.neurons != 0) {  // the scenario with other neurons: simulated here
                network.neurons = scenario.neurons;
                network.seed = config.seed;
                simulator::set_duration(network, scenario.seconds);
                simulator::Simulation simulation = simulator::simulate(network);
                input.recording = {std::move(simulation.trains), std::move(simulation.truth)};
            } else {
                input = pipeline::load_input(config, nullptr);
            }
            neurons = input.recording.trains.num_neurons();
            const TimeBase& tb = input.recording.trains.time_base();
            pipeline::PipelineResult result;
            (void)seconds_of([&] { result = pipeline::run_pipeline(input, config, nullptr); });
            // The assemblies' part of the run: their members, the windows and the tracking (not the episodes).
            double ours_s = 0;
            for (const pipeline::StageTime& stage : result.stages) ours_s += stage.stage == "episodes" ? 0 : stage.seconds;
            ours.add(pipeline::recover(*input.recording.truth, result, tb), ours_s);
            if (!peer_runs) continue;
            double peer_s = 0;
            pipeline::PipelineResult theirs;
            theirs.windows = result.windows;  // the stretches of assemblies active all along
            theirs.assemblies = ica_assemblies(input, python, script, peer_s);
            peer.add(pipeline::recover(*input.recording.truth, theirs, tb), peer_s);
        }
        const std::string seeds = std::to_string(kFirstSeed) + "-" + std::to_string(kFirstSeed + scenario.seeds - 1);
        std::printf("| %s | %.0f | %zu | %s | spikeminer run | %s |\n", scenario.name.c_str(), scenario.seconds, neurons, seeds.c_str(),
                    row_of(ours, scenario.seeds).c_str());
        if (peer_runs) {
            std::printf("| %s | %.0f | %zu | %s | ICA (Lopes-dos-Santos 2013) | %s |\n", scenario.name.c_str(), scenario.seconds, neurons,
                        seeds.c_str(), row_of(peer, scenario.seeds).c_str());
        }
        std::fflush(stdout);
    }
}

}  // namespace spikeminer::bench
