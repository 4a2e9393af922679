// `spikeminer live`: the pipeline while the recording is made, from a growing file,
// standard input or a ZeroMQ socket (live_session.hpp).
#include "commands.hpp"
#include "run_settings.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/live/live_session.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace spikeminer::cli {
namespace {

struct LiveArguments {
    RunArguments run;
    std::string source;
    live::LiveOptions options;
};

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

void live_session(LiveArguments& args) {
    live::LiveOptions options = args.options;
    options.output = args.run.output;
    apply_config_file(options.config, args.run.config_file);
    for (const auto& override : args.run.overrides) override(options.config);
    std::error_code error;
    if (args.source != "-" && args.source.find("://") == std::string::npos && std::filesystem::is_regular_file(args.source, error)) {
        options.config.input = args.source;  // so that the folder cannot be the file followed
    }
    live::validate(options);
    std::optional<TimeBase> tick;
    if (!options.config.tick.empty()) tick = parse_time_base(options.config.tick);
    const std::unique_ptr<live::LiveSource> source = live::open_source(args.source, tick);
    // The first Ctrl-C ends the session (everything written); once the spikes stop being
    // taken, Ctrl-C cancels the final pass, the live results staying.
    static const std::string cancelled = "the live results in " + options.output + " stay; final/ was not written";
    CancelToken ending;
    struct Ending {
        explicit Ending(CancelToken* token) { end_on_first_interrupt(token, cancelled.c_str()); }
        ~Ending() { stop_ending_on_interrupt(); }
        Ending(const Ending&) = delete;
        Ending& operator=(const Ending&) = delete;
    } scoped(&ending);
    TerminalProgress terminal;
    const auto say = [](const std::string& line) {
        std::fprintf(stderr, "live: %s\n", line.c_str());
        std::fflush(stderr);
    };
    say("following " + source->name() + " into " + options.output + (options.publish.empty() ? "" : ", publishing on " + options.publish) +
        "; Ctrl-C ends the session");
    const live::LiveReport report = live::run_live(*source, options, ending, &terminal.progress(), say, stop_ending_on_interrupt);
    std::printf("%s: %s; %zu spikes of %zu units, %zu windows decided live (median %.1f ms after their spikes came), %zu activations "
                "told (median %.1f ms), %zu searches for the assemblies\n",
                source->name().c_str(), report.ended.c_str(), report.spikes, report.units, report.windows, median(report.window_wait_ms),
                report.activation_wait_ms.size(), median(report.activation_wait_ms), report.refreshes);
    std::printf("final: %zu assemblies; wrote %s/final\n", report.assemblies, options.output.c_str());
    for (const std::string& note : report.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
}

}  // namespace

void add_live_command(CLI::App& app) {
    auto args = std::make_shared<LiveArguments>();
    CLI::App* command = app.add_subcommand(
        "live", "The pipeline while the recording is made: spikes from a growing file, standard input or a ZeroMQ socket; each "
                "co-firing window decided once its spikes are in, assemblies found again as evidence accumulates, activations "
                "told at once; the final results when the source ends or on Ctrl-C");
    command->footer(config_help());
    command->add_option("--source", args->source,
                        "a file still being written (lines 'unit,time_s', followed as it grows), - for standard input, or a ZeroMQ "
                        "endpoint to subscribe to (tcp://HOST:PORT; text lines or binary 'SMB1' messages)")
        ->required();
    command->add_option("-o,--output", args->run.output, "a new or empty folder for the live results and, at the end, final/")->required();
    command->add_option("--config", args->run.config_file, "settings from a JSON file (see below)");
    command->add_option("--publish", args->options.publish,
                        "bind a ZeroMQ PUB socket here (e.g. tcp://*:5557) and publish each window, activation and search for the "
                        "assemblies as it happens");
    command->add_option("--lateness", args->options.lateness_s,
                        "how much later (s) than the latest spike an earlier one may still arrive (default 0.1); later ones are left out");
    command->add_option("--warmup", args->options.warmup_s, "seconds of recording seen before the time scales are chosen (default 10)");
    command->add_option("--refresh", args->options.refresh_s,
                        "seconds of recording between two searches for the assemblies over all of it so far (default 60)");
    command->add_option("--until-idle", args->options.until_idle_s,
                        "end the session after this many seconds without a spike (default 0: wait until the source ends or Ctrl-C)");
    add_tick_setting(*command, args->run);
    add_analysis_settings(*command, args->run);
    command->callback([args] { live_session(*args); });
}

}  // namespace spikeminer::cli
