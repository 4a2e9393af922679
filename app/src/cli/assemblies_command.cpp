// `spikeminer assemblies FILE`: neuron assemblies as the maximal cliques of the
// recording's co-firing graph.
#include "cofiring_arguments.hpp"
#include "commands.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/assembly_recovery.hpp"
#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/app/figures/raster_figure.hpp"
#include "spikeminer/app/io/assembly_output.hpp"
#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace spikeminer::cli {
namespace {

struct AssembliesArguments {
    std::string file;
    ReadArguments read;
    CofiringArguments cofiring;
    std::size_t min_size = 3;
    std::string output;
    std::string figure;
    double figure_seconds = 5;
    std::size_t show = 10;
};

std::string members_text(const SpikeTrains& trains, const std::vector<NeuronId>& members) {
    std::string text;
    for (const NeuronId n : members) text += (text.empty() ? "" : " ") + trains.label(n);
    return text;
}

void print_recovery(const simulator::GroundTruth& truth, const std::vector<std::vector<NeuronId>>& found) {
    std::printf("\nembedded assemblies (ground truth) recovered:\n");
    for (const AssemblyRecovery& r : recovered_assemblies(truth, found)) {
        if (r.jaccard == 0) {
            std::printf("  assembly %zu (%zu neurons): not found\n", r.assembly, r.size);
        } else {
            std::printf("  assembly %zu (%zu neurons): assembly %zu found shares %.0f%% of their union%s\n", r.assembly, r.size,
                        r.found + 1, 100 * r.jaccard, r.jaccard == 1 ? " (exact)" : "");
        }
    }
}

// The search the flags ask for, in the recording's ticks.
AssemblySearch search_from(const AssembliesArguments& args, const TimeBase& time_base) {
    AssemblySearch search;
    search.cofiring = args.cofiring.options(time_base);
    search.min_size = args.min_size;
    return search;
}

void run_assemblies(const AssembliesArguments& args) {
    // Refused before the work rather than after it (and after writing the other).
    if (!args.output.empty()) io::check_assemblies_path(args.output);
    if (!args.figure.empty()) figures::check_figure_path(args.figure);
    io::OutputSet outputs({args.output, args.figure}, {args.file}, interrupt_token());
    TerminalProgress terminal;
    const io::SpikeRecording recording = io::read_recording(args.file, args.read.options(&terminal.progress()));
    const SpikeTrains& trains = recording.trains;
    const AssemblySearch search = search_from(args, trains.time_base());
    const AssembliesFound result = find_assemblies(trains, search, &terminal.progress());
    const mining::CofiringWindow& cofiring = result.cofiring;
    const std::vector<std::vector<NeuronId>>& found = result.assemblies;
    const graph::CliqueSummary& summary = result.summary;
    std::fprintf(stderr, "co-firing graph: %zu neurons, %zu edges (of %llu tests, %s)\n", trains.num_neurons(),
                 mining::joined_pairs(cofiring).size(), static_cast<unsigned long long>(cofiring.tests),
                 backend_name(result.counting.backend).c_str());
    if (!result.counting.note.empty()) std::fprintf(stderr, "note: %s\n", result.counting.note.c_str());
    if (!args.output.empty()) io::write_assemblies(args.output, trains, search.cofiring, args.cofiring.unit, cofiring, found);
    if (!args.figure.empty()) {
        figures::write_figure(args.figure, figures::raster_figure(trains, found, figures::opening(trains, args.figure_seconds)));
    }

    outputs.commit();
    if (!summary.note.empty()) std::fprintf(stderr, "note: %s\n", summary.note.c_str());
    std::printf("%zu assemblies of at least %zu neurons (maximal cliques, %s)\n", found.size(), search.min_size,
                backend_name(summary.backend).c_str());
    for (std::size_t i = 0; i < std::min(args.show, found.size()); ++i) {
        std::printf("  %3zu: %zu neurons: %s\n", i + 1, found[i].size(), members_text(trains, found[i]).c_str());
    }
    if (recording.truth && !recording.truth->assemblies.empty()) print_recovery(*recording.truth, found);
    if (!args.output.empty()) std::printf("\nwrote %s\n", args.output.c_str());
    if (!args.figure.empty()) std::printf("wrote %s\n", args.figure.c_str());
}

}  // namespace

void add_assemblies_command(CLI::App& app) {
    auto args = std::make_shared<AssembliesArguments>();
    CLI::App* command = app.add_subcommand(
        "assemblies", "Find neuron assemblies: groups of neurons that all fire together more often than chance (the maximal "
                      "cliques of the co-firing graph)");
    command->add_option("FILE", args->file, "spike file")->required();
    args->read.add_to(*command);
    args->cofiring.add_to(*command, "");
    command->add_option("--min-size", args->min_size, "smallest assembly (default 3)");
    command->add_option("-o,--output", args->output, "write the assemblies and the co-firing edges (.json)");
    CLI::Option* figure =
        command->add_option("--figure", args->figure, "draw the recording's start as a raster, assemblies in colour (.svg or .png)");
    command->add_option("--figure-seconds", args->figure_seconds, "seconds the figure shows (default 5)")
        ->check(CLI::PositiveNumber)
        ->needs(figure);
    command->add_option("--show", args->show, "assemblies listed (default 10)");
    command->callback([args] { run_assemblies(*args); });
}

}  // namespace spikeminer::cli
