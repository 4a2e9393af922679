// See assembly_output.hpp.
#include "spikeminer/app/io/assembly_output.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

namespace spikeminer::io {

void check_assemblies_path(const std::string& path) {
    if (!path.ends_with(".json")) throw UsageError(path + ": assemblies are written as .json");
}

void write_assemblies(const std::string& path, const SpikeTrains& trains, const graph::CofiringOptions& options,
                      const std::string& unit, const graph::CofiringGraph& cofiring,
                      std::span<const std::vector<NeuronId>> assemblies) {
    check_assemblies_path(path);
    nlohmann::json out{{"source", trains.metadata().count("source.file") ? trains.metadata().at("source.file") : ""},
                       {"window", format_ticks(options.window, trains.time_base(), unit) + " " + unit},
                       {"baseline", format_ticks(options.baseline, trains.time_base(), unit) + " " + unit},
                       {"min_count", options.min_count},
                       {"min_ratio", options.min_ratio},
                       {"min_z", options.min_z},
                       {"neurons", trains.num_neurons()},
                       {"pairs_coinciding", cofiring.pairs_coinciding}};
    out["cofiring_edges"] = nlohmann::json::array();
    for (const graph::CofiringPair& pair : cofiring.edges) {
        out["cofiring_edges"].push_back(
            {{"a", trains.label(pair.a)}, {"b", trains.label(pair.b)}, {"count", pair.count}, {"expected", pair.expected}});
    }
    out["assemblies"] = nlohmann::json::array();
    for (const auto& members : assemblies) {
        nlohmann::json labels = nlohmann::json::array();
        for (const NeuronId n : members) labels.push_back(trains.label(n));
        out["assemblies"].push_back({{"size", members.size()}, {"neurons", labels}});
    }
    const std::string text = out.dump(1);
    write_atomically(path, [&text](std::ostream& file) { file << text << '\n'; });
}

}  // namespace spikeminer::io
