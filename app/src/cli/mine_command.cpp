// `spikeminer mine FILE`: level-wise mining of frequent serial episodes.
#include "commands.hpp"
#include "count_arguments.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/chain_recovery.hpp"
#include "spikeminer/app/io/mining_output.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/time_scales.hpp"
#include "spikeminer/core/error.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>

namespace spikeminer::cli {
namespace {

struct MineArguments {
    std::string file;
    ReadArguments read;
    CountArguments count;
    std::string intervals = "auto";
    std::string baseline = "auto";
    std::string unit = "ms";
    std::vector<std::uint64_t> min_counts;
    double min_rate = 0;
    std::size_t max_level = 5;
    double q = 0.01;  // the test against chance; 0: none
    std::string memory_budget = "auto";
    std::string neurons;
    std::string output;
    bool occurrences = false;
    std::size_t show = 10;
    // Significance against surrogates (off unless --significance is given).
    double significance = 0;
    std::size_t surrogates = 1000;
    std::string surrogate = "dither";
    double dither_ms = 10;
    double refractory_ms = 1;
    std::uint64_t surrogate_seed = 1;
};

// Lag ranges written in `unit`, rewritten in ms as the run config takes them ("auto" stays).
std::string in_ms(const std::string& ranges, const std::string& unit, const TimeBase& time_base) {
    if (ranges == "auto" || unit == "ms") return ranges;
    std::string text;
    for (const mining::Interval& range : mining::parse_intervals(ranges, time_base, unit)) {
        text += (text.empty() ? "" : ",") + format_ticks(range.lo, time_base, "ms") + "-" + format_ticks(range.hi, time_base, "ms");
    }
    return text;
}

// The run config's mining settings from the command line: mine and run take their defaults
// (the lags the recording resolves, the test against chance, the floor) from one place.
pipeline::RunConfig mining_settings(const MineArguments& args, const SpikeTrains& trains) {
    pipeline::RunConfig config;
    config.input = args.file;
    config.mining_intervals_ms = in_ms(args.intervals, args.unit, trains.time_base());
    config.baseline_ms = in_ms(args.baseline, args.unit, trains.time_base());
    std::string counts;
    for (const std::uint64_t c : args.min_counts) counts += (counts.empty() ? "" : ",") + std::to_string(c);
    if (!counts.empty()) config.mining_min_count = counts;
    config.max_level = args.max_level;
    config.mining_q = args.q;
    config.memory_budget = args.memory_budget;
    config.significance_q = args.significance;
    config.surrogates = args.surrogates;
    config.surrogate = args.surrogate;
    config.dither_ms = args.dither_ms;
    config.refractory_ms = args.refractory_ms;
    config.surrogate_seed = args.surrogate_seed;
    return config;
}

std::vector<NeuronId> parse_neuron_list(const std::string& text, const SpikeTrains& trains) {
    std::vector<NeuronId> neurons;
    std::stringstream stream(text);
    std::string label;
    while (std::getline(stream, label, ',')) {
        try {
            neurons.push_back(trains.find_label(label));
        } catch (const Error& e) {
            throw UsageError(std::string("--neurons: ") + e.what());
        }
    }
    return neurons;
}

// Reports a finished level on stderr (over the progress bar on a terminal); a note, such
// as a fallback to the CPU, once when it first appears.
void print_level(const mining::LevelReport& level, std::string& last_note) {
    const std::string chance = level.beat_chance ? std::to_string(*level.beat_chance) + " beat chance, " : "";
    std::fprintf(stderr, "%slevel %zu: %zu candidates, %s%zu frequent (count >= %llu)%s, %s on %s, %.3f s\n",
                 isatty(STDERR_FILENO) != 0 ? "\r\033[K" : "", level.level, level.candidates, chance.c_str(), level.frequent,
                 static_cast<unsigned long long>(level.threshold),
                 level.significant ? (", " + std::to_string(*level.significant) + " significant").c_str() : "",
                 mining::counter_name(level.counter).c_str(), backend_name(level.backend).c_str(), level.seconds);
    if (level.bounded_out != 0) {
        std::fprintf(stderr, "  %zu of the candidates not counted: fewer pairs of spikes at their gap than the threshold\n", level.bounded_out);
    }
    if (!level.note.empty() && level.note != last_note) std::fprintf(stderr, "  note: %s\n", level.note.c_str());
    last_note = level.note;
    if (!level.significance_note.empty()) std::fprintf(stderr, "  note: %s\n", level.significance_note.c_str());
}

void print_summary(const SpikeTrains& trains, const mining::MiningResult& result, const MineArguments& args) {
    std::printf("%-6s %11s %12s %9s %12s %10s %8s %8s %9s\n", "level", "candidates", "beat chance", "frequent", "significant",
                "threshold", "counter", "backend", "seconds");
    for (const auto& level : result.levels) {
        std::printf("%-6zu %11zu %12s %9zu %12s %10llu %8s %8s %9.3f\n", level.level, level.candidates,
                    level.beat_chance ? std::to_string(*level.beat_chance).c_str() : "-", level.frequent,
                    level.significant ? std::to_string(*level.significant).c_str() : "-",
                    static_cast<unsigned long long>(level.threshold), mining::counter_name(level.counter).c_str(),
                    backend_name(level.backend).c_str(), level.seconds);
    }
    for (const auto& level : result.levels) {
        std::vector<const mining::FrequentEpisode*> found;
        for (const auto& episode : result.episodes) {
            if (episode.episode.size() == level.level) found.push_back(&episode);
        }
        if (found.empty() || level.level == 1) continue;
        std::sort(found.begin(), found.end(), [](auto* a, auto* b) { return a->count > b->count; });
        std::printf("\nlevel %zu, most frequent of %zu:\n", level.level, found.size());
        for (std::size_t i = 0; i < std::min(args.show, found.size()); ++i) {
            std::printf("  %8llu  %s\n", static_cast<unsigned long long>(found[i]->count),
                        mining::format_episode(found[i]->episode, trains, args.unit).c_str());
        }
    }
}

void print_recovery(const simulator::GroundTruth& truth, const mining::MiningResult& result) {
    std::printf("\nembedded chains (ground truth) recovered:\n");
    for (const ChainRecovery& chain : recovered_chains(truth, result)) {
        if (chain.recovered == 0) {
            std::printf("  chain %zu (%zu neurons): not found\n", chain.chain, chain.length);
        } else {
            std::printf("  chain %zu (%zu neurons): %zu consecutive neurons from node %zu at the right delays, count %llu%s\n",
                        chain.chain, chain.length, chain.recovered, chain.first,
                        static_cast<unsigned long long>(chain.count), chain.recovered == chain.length ? " (whole chain)" : "");
        }
    }
}

void run_mine(const MineArguments& args) {
    io::OutputSet outputs({args.output}, {args.file}, interrupt_token());
    if (args.occurrences && !args.output.ends_with(".json")) throw UsageError("--occurrences: the occurrences are written to JSON only (-o x.json)");
    TerminalProgress terminal;
    const io::SpikeRecording recording = io::read_recording(args.file, args.read.options(&terminal.progress()));
    const SpikeTrains& trains = recording.trains;
    if (!args.min_counts.empty() && args.min_rate > 0) throw UsageError("give --min-count or --min-rate, not both");
    pipeline::RunConfig settings = mining_settings(args, trains);
    pipeline::validate(settings);
    std::fprintf(stderr, "note: time scales: %s\n", pipeline::resolve_time_scales(settings, trains).c_str());
    mining::MiningOptions options = pipeline::mining_options(trains, settings, &terminal.progress());
    if (args.min_rate > 0) options.min_counts = {mining::count_for_rate(args.min_rate, trains)};
    if (!args.neurons.empty()) options.neurons = parse_neuron_list(args.neurons, trains);
    options.count = args.count.options(&terminal.progress());
    options.count.memory_budget = pipeline::memory_budget_bytes(settings);
    std::string last_note;
    const mining::MiningResult result =
        mining::mine(trains, options, [&](const mining::LevelReport& level) { print_level(level, last_note); });
    if (!result.stopped.empty()) std::fprintf(stderr, "warning: %s\n", result.stopped.c_str());
    if (!args.output.empty()) io::write_mining_results(args.output, trains, result, args.unit, args.occurrences);
    outputs.commit();
    print_summary(trains, result, args);
    if (recording.truth && !recording.truth->chains.empty()) print_recovery(*recording.truth, result);
    if (!args.output.empty()) std::printf("\nwrote %s\n", args.output.c_str());
}

}  // namespace

void add_mine_command(CLI::App& app) {
    auto args = std::make_shared<MineArguments>();
    CLI::App* command = app.add_subcommand("mine", "Find frequent serial episodes (repeating firing sequences with "
                                                   "inter-event delays), level by level");
    command->add_option("FILE", args->file, "spike file")->required();
    args->read.add_to(*command);
    args->count.add_to(*command);
    command->add_option("--intervals", args->intervals,
                        "allowed delays (lo,hi], e.g. 0-5,5-10, in --unit (default auto: 0-5,5-10 ms, or one and two steps "
                        "of a coarser time grid)");
    command->add_option("--baseline", args->baseline,
                        "the lags, both ways, that give chance to the test, in --unit (default auto: 20-40 ms, or 6 to 10 "
                        "steps of a coarser time grid)");
    command->add_option("--unit", args->unit, "unit of --intervals and --baseline: s, ms (default), us, ns");
    command->add_option("--q", args->q,
                        "test each level's candidates against chance (their timing and their order, the neurons' own firing "
                        "kept) at this false discovery rate (default 0.01; 0: no test, the count alone decides)");
    command->add_option("--min-count", args->min_counts,
                        "floor count (default auto: 5 with the test, else a chance count of fast pairs); a list "
                        "(200,100,50) sets it per level (a level is joined only from the episodes of the level before, so "
                        "a lower later floor finds no more than that)")
        ->delimiter(',');
    command->add_option("--min-rate", args->min_rate, "floor as occurrences per second of recording");
    command->add_option("--max-level", args->max_level, "longest episode (default 5)");
    command->add_option("--memory-budget", args->memory_budget,
                        "memory a level may take, e.g. 4G (default auto: half what is available); a level that does not "
                        "fit is not mined, and the levels before it are kept");
    command->add_option("--neurons", args->neurons, "mine only these neurons (labels, comma separated)");
    CLI::Option* output = command->add_option("-o,--output", args->output, "write the frequent episodes (.json, .csv or .h5)");
    command->add_flag("--occurrences", args->occurrences, "with -o x.json: also list each episode's occurrences")->needs(output);
    command->add_option("--show", args->show, "episodes listed per level (default 10)");
    CLI::Option* significance =
        command->add_option("--significance", args->significance,
                            "keep, from level 2 on, only the episodes more frequent than in surrogate recordings, at this "
                            "false discovery rate (Benjamini-Hochberg), e.g. 0.05");
    command->add_option("--surrogates", args->surrogates, "surrogate recordings per test (default 1000; a candidate stops "
                                                          "early once 10 of them reach its count)")->needs(significance);
    command->add_option("--surrogate", args->surrogate, "dither (default: each spike moved within +-dither), isi (moved as "
                                                        "the neuron's joint distribution of successive intervals allows: "
                                                        "bursts and regular firing kept) or shift (each neuron's train moved "
                                                        "as a whole)")->needs(significance);
    command->add_option("--dither-ms", args->dither_ms, "the surrogates' largest move in ms (default 10)")->needs(significance);
    command->add_option("--refractory-ms", args->refractory_ms, "dither and isi keep spikes of a neuron this far apart (default 1)")
        ->needs(significance);
    command->add_option("--surrogate-seed", args->surrogate_seed, "the surrogates' seed (default 1)")->needs(significance);
    command->callback([args] { run_mine(*args); });
}

}  // namespace spikeminer::cli
