#include "spikeminer/app/io/mining_output.hpp"

#include "json_text.hpp"
#include "mining_h5.hpp"
#include "significance_fields.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>

namespace spikeminer::io {
namespace {

double in_unit(Tick ticks, const TimeBase& time_base, const std::string& unit) {
    return static_cast<double>(ticks) * static_cast<double>(units_per_second(unit)) /
           static_cast<double>(time_base.ticks_per_second);
}

std::string json_text(const SpikeTrains& trains, const mining::MiningResult& result, const std::string& unit,
                      bool with_occurrences) {
    nlohmann::json out{{"source", trains.metadata().count("source.file") ? trains.metadata().at("source.file") : ""},
                       {"tick", trains.time_base().describe()},
                       {"interval_unit", unit}};
    out["levels"] = nlohmann::json::array();
    for (const auto& level : result.levels) {
        nlohmann::json entry{{"level", level.level},
                             {"candidates", level.candidates},
                             {"not_counted_by_pair_bound", level.bounded_out},
                             {"frequent", level.frequent},
                             {"threshold", level.threshold},
                             {"counter", mining::counter_name(level.counter)},
                             {"backend", backend_name(level.backend)},
                             {"seconds", level.seconds}};
        if (level.beat_chance) {
            entry["tested_against_chance"] = level.chance_tests;
            entry["beat_chance"] = *level.beat_chance;
        }
        if (level.significant) entry["significant"] = *level.significant;
        out["levels"].push_back(entry);
    }
    if (!result.stopped.empty()) out["stopped"] = result.stopped;
    out["episodes"] = nlohmann::json::array();
    // One counter for every episode's occurrences: the spike times are grouped once.
    std::optional<mining::EpisodeCounter> counter;
    if (with_occurrences) counter.emplace(trains, mining::CountOptions{.backend = Backend::Cpu});
    for (const auto& found : result.episodes) {
        nlohmann::json labels = nlohmann::json::array();
        for (NeuronId n : found.episode.neurons) labels.push_back(trains.label(n));
        nlohmann::json intervals = nlohmann::json::array();
        for (const auto& gap : found.episode.gaps) {
            intervals.push_back({in_unit(gap.lo, trains.time_base(), unit), in_unit(gap.hi, trains.time_base(), unit)});
        }
        nlohmann::json entry{{"episode", mining::format_episode(found.episode, trains, unit)},
                             {"neurons", labels},
                             {"intervals", intervals},
                             {"count", found.count}};
        if (const auto& c = found.chance) entry["chance"] = detail::chance_json(*c);
        if (const auto& s = found.significance) entry["significance"] = detail::significance_json(*s);
        if (with_occurrences) {
            entry["occurrences_s"] = nlohmann::json::array();
            for (const auto& occurrence : counter->occurrences(found.episode)) {
                nlohmann::json times = nlohmann::json::array();
                for (std::uint32_t i : occurrence.events) times.push_back(trains.time_base().to_seconds(trains.times()[i]));
                entry["occurrences_s"].push_back(times);
            }
        }
        out["episodes"].push_back(entry);
    }
    return io::json_text(out, 1) + "\n";
}

// With the test against chance six more columns, with significance tests five more (empty
// for the untested single neurons).
std::string csv_text(const SpikeTrains& trains, const mining::MiningResult& result, const std::string& unit) {
    const bool chance = std::any_of(result.episodes.begin(), result.episodes.end(), [](const auto& e) { return e.chance.has_value(); });
    const bool tested = std::any_of(result.episodes.begin(), result.episodes.end(), [](const auto& e) { return e.significance.has_value(); });
    std::string text = std::string("level,count,episode") + (chance ? detail::kChanceColumns : "") +
                       (tested ? detail::kSignificanceColumns : "") + "\n";
    for (const auto& found : result.episodes) {
        text += std::to_string(found.episode.size()) + "," + std::to_string(found.count) + ",\"" +
                mining::format_episode(found.episode, trains, unit) + "\"";
        if (chance) text += detail::chance_csv(found.chance);
        if (tested) text += detail::significance_csv(found.significance);
        text += "\n";
    }
    return text;
}

}  // namespace

void write_mining_results(const std::string& path, const SpikeTrains& trains, const mining::MiningResult& result,
                          const std::string& unit, bool with_occurrences) {
    if (path.ends_with(".h5")) {
        AtomicOutput output(path);
        detail::write_mining_h5(output.temp_path(), path, trains, result);
        output.commit();
        return;
    }
    const bool json = path.ends_with(".json");
    if (!json && !path.ends_with(".csv")) throw UsageError(path + ": mining results are written as .json, .csv or .h5");
    const std::string text = json ? json_text(trains, result, unit, with_occurrences) : csv_text(trains, result, unit);
    write_atomically(path, [&text](std::ostream& file) { file << text; });
}

}  // namespace spikeminer::io

namespace spikeminer::io {

mining::MiningResult read_mining_results(const std::string& path) { return detail::read_mining_h5(path); }

}  // namespace spikeminer::io
