// `spikeminer run` and `spikeminer demo`: the whole pipeline, from a recording (or a
// simulation) to assemblies through time, with the results in one folder; or, with
// --batch, many recordings each in its own.
#include "commands.hpp"
#include "run_settings.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/app/pipeline/batch.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/ranks.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include <unistd.h>

namespace spikeminer::cli {
namespace {

void print_summary(const pipeline::Input& input, const pipeline::PipelineResult& result, std::size_t show) {
    const SpikeTrains& trains = input.recording.trains;
    const TimeBase& tb = trains.time_base();
    std::printf("%s: %zu neurons, %zu spikes, %.1f s\n", input.source.c_str(), trains.num_neurons(), trains.num_spikes(),
                tb.to_seconds(trains.span().length()));
    std::size_t longest = 0;
    std::vector<std::size_t> per_level;
    for (const auto& f : result.episodes.episodes) {
        longest = std::max(longest, f.episode.size());
        if (per_level.size() < f.episode.size()) per_level.resize(f.episode.size(), 0);
        ++per_level[f.episode.size() - 1];
    }
    std::string levels;
    for (std::size_t k = 1; k < per_level.size(); ++k) levels += (levels.empty() ? "" : ", ") + std::to_string(per_level[k]) + " of " + std::to_string(k + 1);
    const bool against_chance = result.settings.mining_q > 0;
    std::printf("episodes: %zu of 2+ neurons %s (%s)\n", result.episodes.episodes.size() - (per_level.empty() ? 0 : per_level[0]),
                against_chance ? "beat chance" : "frequent", levels.empty() ? "none" : levels.c_str());
    std::size_t edges = 0;
    for (const auto& w : result.windows) edges = std::max(edges, w.edges);
    std::printf("co-firing: %zu windows, up to %zu edges in one\n", result.windows.size(), edges);
    std::printf("assemblies: %zu through time (%zu events)\n", result.assemblies.size(), result.events.size());
    std::vector<const pipeline::Assembly*> longest_lived;
    for (const auto& a : result.assemblies) longest_lived.push_back(&a);
    std::stable_sort(longest_lived.begin(), longest_lived.end(),
                     [](const auto* x, const auto* y) { return x->track.windows.size() > y->track.windows.size(); });
    for (std::size_t i = 0; i < std::min(show, longest_lived.size()); ++i) {
        const pipeline::Assembly& a = *longest_lived[i];
        std::string members;
        for (const NeuronId n : a.members) members += " " + trains.label(n);
        char tested[96] = "";
        if (const auto& s = a.significance) {
            std::snprintf(tested, sizeof tested, " (p %.2g, adjusted %.2g%s)", s->p, s->p_adjusted, s->significant ? "" : ": chance");
        }
        std::printf("  %3u: %.1f s to %.1f s, %zu windows, %zu activations%s:%s\n", a.track.id, tb.to_seconds(a.span.start),
                    tb.to_seconds(a.span.end), a.track.windows.size(), a.activations.size(), tested, members.c_str());
    }
    if (result.recovery) {
        const pipeline::Recovery& r = *result.recovery;
        std::printf("recovered of the ground truth:\n");
        std::printf("  chains: %zu of %zu links found as episodes at their delays (recall %.2f); %zu of %zu episodes of 3+ neurons are "
                    "embedded structure (precision %.2f)\n",
                    r.chain_links_found, r.chain_links, r.chain_recall(), r.long_episodes_true, r.long_episodes, r.chain_precision());
        std::printf("  assemblies: %zu of %zu active stretches found (recall %.2f); %zu of %zu tracked assemblies are them (precision "
                    "%.2f); spans off by %.1f s on average\n",
                    r.assembly_periods_found, r.assembly_periods, r.assembly_recall(), r.assemblies_true, r.assemblies_tracked,
                    r.assembly_precision(), r.span_error_s);
        if (r.events != 0 || r.events_reported != 0) {
            std::printf("  events: %zu of %zu embedded found, %.1f s off on average; %zu of %zu reported are embedded\n", r.events_found, r.events,
                        r.event_time_error_s, r.events_true, r.events_reported);
        }
    }
    std::printf("time:");
    for (const auto& s : result.stages) std::printf(" %s %.2f s%s;", s.stage.c_str(), s.seconds, s.backend.empty() ? "" : (" (" + s.backend + ")").c_str());
    std::printf("\npeak memory:");
    for (const auto& s : result.stages) {
        if (s.peak_bytes != 0) std::printf(" %s %s;", s.stage.c_str(), format_bytes(static_cast<double>(s.peak_bytes)).c_str());
    }
    std::printf("\n");
    for (const auto& note : result.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
}

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return text;
}

// Many recordings (--batch): each into its own folder under -o, a line for each, and the
// summary table; Error (exit 1) when any failed.
void run_batch(const pipeline::RunConfig& config, const RunArguments& args) {
    const auto apply_overrides = [&args](pipeline::RunConfig& c) {
        for (const auto& override : args.overrides) override(c);
    };
    pipeline::RunConfig given = config;
    apply_overrides(given);
    if (!given.input.empty() || !given.simulate.empty()) throw UsageError("--batch: give the recordings in the manifest, not INPUT or --simulate");
    const std::vector<pipeline::BatchEntry> entries = pipeline::read_manifest(args.batch, config, apply_overrides);
    const pipeline::MpiRanks ranks;  // under mpirun: rank 0 hands out, reports and writes the summary
    TerminalProgress terminal;
    std::size_t position = 0;
    const auto report = [&](const pipeline::BatchOutcome& o) {
        if (isatty(STDERR_FILENO) != 0) std::fprintf(stderr, "\r\033[K");  // the progress bar's line
        std::printf("[%zu/%zu] %s: %s", ++position, entries.size(), o.name.c_str(), pipeline::status_name(o.status).c_str());
        if (o.status == pipeline::BatchOutcome::Status::Failed) {
            std::printf(": %s\n", o.error.c_str());
        } else {
            std::printf(" (%zu neurons, %zu spikes, %zu windows, %zu assemblies%s)\n", o.neurons, o.spikes, o.windows, o.assemblies,
                        o.status == pipeline::BatchOutcome::Status::Done ? (", " + seconds_text(o.seconds)).c_str() : "");
        }
        std::fflush(stdout);
    };
    const auto outcomes = pipeline::run_batch_on_ranks(ranks, entries, args.output, args.batch, &terminal.progress(), args.figure_seconds, report);
    if (ranks.rank() != 0) return;
    const auto failed = static_cast<std::size_t>(std::count_if(outcomes.begin(), outcomes.end(), [](const auto& o) {
        return o.status == pipeline::BatchOutcome::Status::Failed;
    }));
    std::printf("wrote %s: one folder per recording, batch-summary.csv, batch-summary.json\n", args.output.c_str());
    if (failed > 0) {
        throw Error(std::to_string(failed) + " of " + std::to_string(outcomes.size()) + " recordings failed (see " + args.output +
                    "/batch-summary.csv); run the same command again to retry them");
    }
}

void run(pipeline::RunConfig config, const RunArguments& args) {
    apply_config_file(config, args.config_file);
    if (!args.batch.empty()) {
        run_batch(config, args);
        return;
    }
    for (const auto& override : args.overrides) override(config);
    pipeline::validate(config);
    // Under mpirun every rank checks and reads alike (a bad setting stops them all the same
    // way), the windows are shared out, and rank 0 writes.
    const pipeline::MpiRanks ranks;
    pipeline::check_results_dir(args.output, config);
    TerminalProgress terminal;
    reset_peak_memory();
    const auto reading = std::chrono::steady_clock::now();
    const pipeline::Input input = pipeline::load_input(config, &terminal.progress());
    const pipeline::StageTime read{config.simulate.empty() ? "read" : "simulate",
                                   std::chrono::duration<double>(std::chrono::steady_clock::now() - reading).count(), "cpu", peak_memory()};
    std::optional<pipeline::PipelineResult> ran = pipeline::run_pipeline_on_ranks(ranks, input, config, &terminal.progress());
    if (!ran) return;
    pipeline::PipelineResult& result = *ran;
    result.stages.insert(result.stages.begin(), read);
    const std::vector<std::string> written = pipeline::write_results(args.output, input, config, result, &terminal.progress(), args.figure_seconds);
    print_summary(input, result, args.show);
    std::string names;
    for (const std::string& name : written) names += (names.empty() ? "" : ", ") + name;
    std::printf("wrote %s: %s\n", args.output.c_str(), names.c_str());
    if (!figures::figures_available()) {
        std::fprintf(stderr, "note: no figures: this build has no Cairo and Graphviz (install libcairo2-dev and libgraphviz-dev and build again)\n");
    }
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto args = std::make_shared<RunArguments>();
    CLI::App* command = app.add_subcommand(
        "run", "The whole pipeline: episodes, co-firing windows, their graph kept in a dynamic graph, cliques, assemblies through "
               "time; results in one folder");
    command->footer(config_help());
    using C = pipeline::RunConfig;
    setting(*command, *args, "INPUT", &C::input, "a recording (or give --simulate)");
    setting(*command, *args, "--simulate", &C::simulate, "simulate this scenario instead: demo, assemblies, dynamics, paper, large, none");
    command->add_option("--config", args->config_file, "settings from a JSON file (see below)");
    command->add_option("--batch", args->batch,
                        "run every recording of this manifest, each into its own folder under -o, and resume: "
                        "{\"recordings\": [\"a.h5\", {\"input\": \"b.nwb\", \"name\": \"b\", <its own settings>}], <shared settings>}");
    command->add_option("-o,--output", args->output, "a new or empty folder for the results (with --batch: the batch's folder)")->required();
    add_input_settings(*command, *args);
    add_analysis_settings(*command, *args);
    add_output_settings(*command, *args);
    command->callback([args] { run(pipeline::RunConfig{}, *args); });
}

void add_demo_command(CLI::App& app) {
    auto args = std::make_shared<RunArguments>();
    args->output = "spikeminer-demo";
    CLI::App* command = app.add_subcommand(
        "demo", "The main job on a built-in example: simulate four minutes of 100 neurons with firing chains and assemblies that come "
                "and go, run the whole pipeline, say what it found, write everything to ./spikeminer-demo/");
    command->add_option("-o,--output", args->output, "where the results go (default spikeminer-demo; a previous demo's results there are replaced)");
    add_input_settings(*command, *args);
    add_analysis_settings(*command, *args);
    add_output_settings(*command, *args);
    command->callback([args] {
        pipeline::RunConfig config = pipeline::demo_config();
        pipeline::remove_previous_results(args->output);
        run(config, *args);
    });
}

}  // namespace spikeminer::cli
