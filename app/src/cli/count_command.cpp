// `spikeminer count FILE --episode "A -(5,10]-> B"`: counts given episodes.
#include "commands.hpp"
#include "count_arguments.hpp"
#include "../io/json_text.hpp"
#include "read_arguments.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/app/io/read_spikes.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

namespace spikeminer::cli {
namespace {

struct CountCommandArguments {
    std::string file;
    ReadArguments read;
    CountArguments count;
    std::vector<std::string> episodes;
    std::string unit = "ms";
    bool occurrences = false;
    bool json = false;
};

void run_count(const CountCommandArguments& args) {
    TerminalProgress terminal;
    const SpikeTrains trains = io::read_spikes(args.file, args.read.options(&terminal.progress()));
    std::vector<mining::Episode> episodes;
    for (const std::string& text : args.episodes) episodes.push_back(mining::parse_episode(text, trains, args.unit));
    mining::EpisodeCounter counter(trains, args.count.options(&terminal.progress()));
    const mining::CountResult result = counter.count(episodes);
    if (!result.note.empty()) std::fprintf(stderr, "note: %s\n", result.note.c_str());
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t i = 0; i < episodes.size(); ++i) {
        nlohmann::json entry{{"episode", mining::format_episode(episodes[i], trains, args.unit)}, {"count", result.counts[i]}};
        if (!args.json) std::printf("%10llu  %s\n", static_cast<unsigned long long>(result.counts[i]), entry["episode"].get<std::string>().c_str());
        if (args.occurrences) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& occurrence : counter.occurrences(episodes[i])) {
                nlohmann::json times = nlohmann::json::array();
                std::string line = "            ";
                for (std::uint32_t e : occurrence.events) {
                    const double t = trains.time_base().to_seconds(trains.times()[e]);
                    times.push_back(t);
                    line += std::to_string(t) + " ";
                }
                list.push_back(times);
                if (!args.json) std::printf("%s\n", line.c_str());
            }
            entry["occurrences_s"] = list;
        }
        out.push_back(entry);
    }
    if (args.json) std::cout << io::json_text(out, 1) << "\n";
    std::fprintf(stderr, "counted with %s on %s\n", mining::counter_name(result.counter).c_str(),
                 backend_name(result.backend).c_str());
}

}  // namespace

void add_count_command(CLI::App& app) {
    auto args = std::make_shared<CountCommandArguments>();
    CLI::App* command = app.add_subcommand("count", "Count given serial episodes (non-overlapped occurrences)");
    command->add_option("FILE", args->file, "spike file")->required();
    args->read.add_to(*command);
    args->count.add_to(*command);
    command->add_option("--episode", args->episodes, "an episode, e.g. \"3 -(5,10]-> 7 -(0,5]-> 12\" (labels; repeatable)")
        ->required();
    command->add_option("--unit", args->unit, "unit of the interval bounds: s, ms (default), us, ns");
    command->add_flag("--occurrences", args->occurrences, "list the counted occurrences (spike times in seconds)");
    command->add_flag("--json", args->json, "print JSON");
    command->callback([args] { run_count(*args); });
}

}  // namespace spikeminer::cli
