// `spikeminer convert IN OUT`: between the spike formats, keeping ticks and labels.
#include "commands.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <cstdio>
#include <memory>

namespace spikeminer::cli {
namespace {

struct ConvertArguments {
    std::string input;
    std::string output;
    ReadArguments read;
    std::string to;
};

void run_convert(const ConvertArguments& args) {
    io::SpikeFormat out_format{};
    if (!args.to.empty()) {
        out_format = io::parse_spike_format(args.to);
    } else if (const auto by_extension = io::format_from_extension(args.output)) {
        out_format = *by_extension;
    } else {
        throw UsageError("convert: cannot tell the output format from '" + args.output +
                         "': use an extension (.csv, .csv.gz, .txt, .h5, .nwb) or --to");
    }
    io::OutputSet outputs({args.output}, {args.input}, interrupt_token());
    TerminalProgress terminal;
    const SpikeTrains trains = io::read_spikes(args.input, args.read.options(&terminal.progress()));
    io::write_spikes(args.output, trains, out_format);
    outputs.commit();
    std::fprintf(stderr, "wrote %s (%s): %zu neurons, %zu spikes\n", args.output.c_str(),
                 io::format_name(out_format).c_str(), trains.num_neurons(), trains.num_spikes());
}

}  // namespace

void add_convert_command(CLI::App& app) {
    auto args = std::make_shared<ConvertArguments>();
    CLI::App* command = app.add_subcommand("convert", "Convert a spike file to another format");
    command->add_option("IN", args->input, "input spike file")->required();
    command->add_option("OUT", args->output, "output file; the format follows the extension unless --to is given")
        ->required();
    args->read.add_to(*command);
    command->add_option("--to", args->to, "output format: csv, text, nwb, spikeminer, waverepo");
    command->callback([args] { run_convert(*args); });
}

}  // namespace spikeminer::cli
