#include "pipeline_tables.hpp"

#include "bench_timing.hpp"

#include "spikeminer/simulator/simulate.hpp"

#include <algorithm>
#include <cstdio>
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
        double total = row.read_s;
        for (const auto& s : row.result.stages) {
            stage[s.stage] = s.seconds;
            total += s.seconds;
        }
        std::size_t edges = 0;
        for (const auto& w : row.result.windows) edges = std::max(edges, w.edges);
        const double graphs = stage["graph updates"] + stage["components and PageRank"] + stage["cliques"] + stage["tracking and activations"];
        std::printf("| %s | %s | %zu | %zu | %.0f | %s%s | %zu | %zu | %s | %s | %s | %s | %s | %.0f |\n", row.name.c_str(), row.backend.c_str(),
                    row.neurons, row.spikes, row.duration_s, by_length(row.result.episodes).c_str(),
                    row.result.episodes.stopped.empty() ? "" : " (stopped)", edges, row.result.assemblies.size(), cell(row.read_s, "%.2f").c_str(),
                    cell(stage["episodes"], "%.2f").c_str(), cell(stage["co-firing"], "%.2f").c_str(), cell(graphs, "%.2f").c_str(),
                    cell(total, "%.2f").c_str(), row.peak_mib);
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

}  // namespace spikeminer::bench
