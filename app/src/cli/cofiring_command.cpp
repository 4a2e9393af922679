// `spikeminer cofiring FILE`: the co-firing edges of a recording, window by window (or of
// the whole recording), streamed to a CSV table.
#include "cofiring_arguments.hpp"
#include "commands.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/assembly_output.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace spikeminer::cli {
namespace {

struct CofiringCommandArguments {
    std::string file;
    ReadArguments read;
    CofiringArguments cofiring;
    std::string window;
    std::string step;
    std::string output;
    std::size_t show = 10;
};

// Window and step in seconds, exactly in ticks; both or neither.
void set_windows(const CofiringCommandArguments& args, const TimeBase& time_base, mining::CofiringOptions& options) {
    if (args.window.empty() != args.step.empty()) throw UsageError("--window and --step go together");
    if (args.window.empty()) return;
    try {
        options.window = parse_ticks(args.window, "s", time_base);
        options.step = parse_ticks(args.step, "s", time_base);
    } catch (const Error& e) {
        throw UsageError(std::string("--window, --step: ") + e.what());
    }
    if (options.window <= 0 || options.step <= 0) throw UsageError("--window and --step must be positive");
}

// One window's edges as CSV rows.
void write_rows(std::ostream& out, const mining::CofiringWindow& window, const SpikeTrains& trains, const mining::CofiringLags& lags,
                const std::string& unit) {
    const TimeBase& tb = trains.time_base();
    for (const mining::CofiringEdge& e : window.edges) {
        out << window.index << ',' << format_ticks(window.span.start, tb, "s") << ',' << format_ticks(window.span.end, tb, "s") << ','
            << trains.label(e.a) << ',' << trains.label(e.b) << ',' << io::tested_lags(e, lags, tb, unit) << ',' << e.count << ','
            << e.expected << ',' << e.p << ',' << e.p_adjusted << '\n';
    }
}

void run_cofiring(const CofiringCommandArguments& args) {
    if (!args.output.empty() && !args.output.ends_with(".csv")) throw UsageError(args.output + ": co-firing edges are written as .csv");
    io::OutputSet outputs({args.output}, {args.file}, interrupt_token());
    TerminalProgress terminal;
    const SpikeTrains trains = io::read_spikes(args.file, args.read.options(&terminal.progress()));
    mining::CofiringOptions options = args.cofiring.options(trains.time_base());
    set_windows(args, trains.time_base(), options);
    options.progress = &terminal.progress();
    mining::CofiringWindows windows(trains, options);
    std::size_t edges = 0;
    std::size_t most = 0;
    mining::CofiringWindow window;
    mining::CofiringWindow last;
    const auto each_window = [&](std::ostream* out) {
        while (windows.next(window)) {
            edges += window.edges.size();
            most = std::max(most, window.edges.size());
            if (out != nullptr) write_rows(*out, window, trains, options.lags, args.cofiring.unit);
            std::swap(last, window);
        }
    };
    if (args.output.empty()) {
        each_window(nullptr);
    } else {
        io::write_atomically(args.output, [&](std::ostream& out) {
            out << "window,start_s,end_s,a,b,lags,count,expected,p,p_adjusted\n";
            each_window(&out);
        });
    }
    outputs.commit();
    const BackendChoice& backend = windows.backend();
    if (!backend.note.empty()) std::fprintf(stderr, "note: %s\n", backend.note.c_str());
    if (!windows.note().empty()) std::fprintf(stderr, "note: %s\n", windows.note().c_str());
    std::printf("%zu windows, %s: %zu co-firing edges in all, at most %zu in one window\n", windows.size(),
                backend_name(backend.backend).c_str(), edges, most);
    // The last window's strongest edges.
    std::sort(last.edges.begin(), last.edges.end(), [](const auto& x, const auto& y) { return x.p_adjusted < y.p_adjusted; });
    if (!last.edges.empty()) {
        std::printf("strongest edges of window %zu (%s s to %s s):\n", last.index,
                    format_ticks(last.span.start, trains.time_base(), "s").c_str(), format_ticks(last.span.end, trains.time_base(), "s").c_str());
    }
    for (std::size_t i = 0; i < std::min(args.show, last.edges.size()); ++i) {
        const mining::CofiringEdge& e = last.edges[i];
        std::printf("  %s %s %s: %llu times, %.1f expected, corrected p %.3g\n", trains.label(e.a).c_str(),
                    e.interval == mining::kSynchrony ? "with" : "then", trains.label(e.b).c_str(), static_cast<unsigned long long>(e.count),
                    e.expected, e.p_adjusted);
    }
    if (!args.output.empty()) std::printf("wrote %s\n", args.output.c_str());
}

}  // namespace

void add_cofiring_command(CLI::App& app) {
    auto args = std::make_shared<CofiringCommandArguments>();
    CLI::App* command = app.add_subcommand(
        "cofiring", "Co-firing edges: the pairs of neurons that fire together, or one after the other, more often than chance, "
                    "window by window");
    command->add_option("FILE", args->file, "spike file")->required();
    args->read.add_to(*command);
    args->cofiring.add_to(*command, mining::kDefaultIntervalsMs);
    command->add_option("--window", args->window, "windows this many seconds wide (default: the whole recording as one)");
    command->add_option("--step", args->step, "... every this many seconds (the window must be a whole number of steps)");
    command->add_option("-o,--output", args->output, "write every window's edges (.csv)");
    command->add_option("--show", args->show, "edges of the last window listed (default 10)");
    command->callback([args] { run_cofiring(*args); });
}

}  // namespace spikeminer::cli
