// See assembly_output.hpp.
#include "spikeminer/app/io/assembly_output.hpp"

#include "json_text.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace spikeminer::io {
namespace {

std::string lag_range(const mining::Interval& lags, const TimeBase& time_base, const std::string& unit) {
    return format_ticks(lags.lo, time_base, unit) + "-" + format_ticks(lags.hi, time_base, unit);
}

}  // namespace

void check_assemblies_path(const std::string& path) {
    if (!path.ends_with(".json")) throw UsageError(path + ": assemblies are written as .json");
}

std::string tested_lags(const mining::CofiringEdge& edge, const mining::CofiringLags& lags, const TimeBase& time_base,
                        const std::string& unit) {
    if (edge.interval == mining::kSynchrony) return "sync";
    return lag_range(lags.intervals.at(static_cast<std::size_t>(edge.interval)), time_base, unit);
}

void write_assemblies(const std::string& path, const SpikeTrains& trains, const mining::CofiringOptions& options,
                      const std::string& unit, const mining::CofiringWindow& cofiring,
                      std::span<const std::vector<NeuronId>> assemblies) {
    check_assemblies_path(path);
    const TimeBase& tb = trains.time_base();
    const mining::CofiringLags& lags = options.lags;
    const mining::EdgeTest& test = options.test;
    nlohmann::json intervals = nlohmann::json::array();
    for (const mining::Interval& interval : lags.intervals) intervals.push_back(lag_range(interval, tb, unit));
    nlohmann::json out{
        {"source", trains.metadata().count("source.file") ? trains.metadata().at("source.file") : ""},
        {"unit", unit},
        {"sync", lags.sync >= 0 ? nlohmann::json(format_ticks(lags.sync, tb, unit)) : nlohmann::json(nullptr)},
        {"intervals", intervals},
        {"baseline", lag_range(lags.baseline, tb, unit)},
        {"chance", test.chance == mining::Chance::Baseline ? "baseline" : "independent"},
        {"correction", test.correction == mining::Correction::BenjaminiHochberg ? "bh" : "bonferroni"},
        {"q", test.q},
        {"min_count", test.min_count},
        {"min_ratio", test.min_ratio},
        {"neurons", trains.num_neurons()},
        {"tests", cofiring.tests}};
    if (std::isfinite(test.min_z)) out["min_z"] = test.min_z;
    out["cofiring_edges"] = nlohmann::json::array();
    for (const mining::CofiringEdge& e : cofiring.edges) {
        out["cofiring_edges"].push_back({{"a", trains.label(e.a)},
                                         {"b", trains.label(e.b)},
                                         {"lags", tested_lags(e, lags, tb, unit)},
                                         {"count", e.count},
                                         {"expected", e.expected},
                                         {"p", e.p},
                                         {"p_adjusted", e.p_adjusted}});
    }
    out["assemblies"] = nlohmann::json::array();
    for (const auto& members : assemblies) {
        nlohmann::json labels = nlohmann::json::array();
        for (const NeuronId n : members) labels.push_back(trains.label(n));
        out["assemblies"].push_back({{"size", members.size()}, {"neurons", labels}});
    }
    const std::string text = json_text(out, 1);
    write_atomically(path, [&text](std::ostream& file) { file << text << '\n'; });
}

}  // namespace spikeminer::io
