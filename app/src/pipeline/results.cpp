// See results.hpp: the results folder, written whole or not at all.
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/run_figures.hpp"

#include "../io/json_text.hpp"
#include "../io/significance_fields.hpp"
#include "results_h5.hpp"
#include "results_nwb.hpp"

#include "spikeminer/app/figures/raster_figure.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/mining_output.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace spikeminer::pipeline {
namespace {

namespace fs = std::filesystem;

// What write_results writes: these files, and each figure as .svg and .png.
const std::vector<std::string> kTableFiles = {"results.h5", "summary.json", "assemblies.csv", "episodes.csv", "windows.csv"};
// With the setting `nwb`.
constexpr const char* kNwbFile = "results.nwb";
const std::vector<std::string> kFigureNames = {"raster", "timeline", "graph"};

bool is_result_file(const std::string& name) {
    if (std::find(kTableFiles.begin(), kTableFiles.end(), name) != kTableFiles.end() || name == kNwbFile) return true;
    const std::string stem = fs::path(name).stem().string();
    return (name.ends_with(".svg") || name.ends_with(".png")) && std::find(kFigureNames.begin(), kFigureNames.end(), stem) != kFigureNames.end();
}

// A folder beside the target that becomes the target at commit(), or is removed.
class PartialFolder {
public:
    explicit PartialFolder(const fs::path& target) : target_(fs::absolute(target)) {
        std::string pattern = (target_.parent_path() / (target_.filename().string() + ".partial-XXXXXX")).string();
        if (mkdtemp(pattern.data()) == nullptr) throw Error(target_.string() + ": cannot make a folder beside it for the results");
        temp_ = pattern;
    }
    ~PartialFolder() {
        std::error_code ignored;
        if (!committed_) fs::remove_all(temp_, ignored);
    }
    PartialFolder(const PartialFolder&) = delete;
    PartialFolder& operator=(const PartialFolder&) = delete;

    [[nodiscard]] std::string file(const std::string& name) const { return (temp_ / name).string(); }
    [[nodiscard]] std::string path() const { return temp_.string(); }

    void commit() {
        // mkdtemp made it for the owner alone; the results folder gets a new folder's rights.
        const mode_t mask = umask(0);
        umask(mask);
        chmod(temp_.c_str(), 0777 & ~mask);
        std::error_code error;
        if (fs::exists(target_)) fs::remove(target_, error);  // an empty folder (check_results_dir allowed no other)
        fs::rename(temp_, target_, error);
        if (error) throw Error(target_.string() + ": the results could not be moved into place: " + error.message());
        committed_ = true;
    }

private:
    io::WriteInProgress writing_;
    fs::path target_;
    fs::path temp_;
    bool committed_ = false;
};

std::string seconds(Tick t, const TimeBase& tb) { return format_ticks(t, tb, "s"); }

std::string labels(const SpikeTrains& trains, const std::vector<NeuronId>& neurons, const char* separator) {
    std::string text;
    for (const NeuronId n : neurons) text += (text.empty() ? "" : separator) + trains.label(n);
    return text;
}

// The settings a run applied (its auto lags resolved), or those given for a result that
// does not carry them.
const RunConfig& applied(const RunConfig& config, const PipelineResult& result) {
    const bool carried = !result.settings.input.empty() || !result.settings.simulate.empty();
    return carried ? result.settings : config;
}

nlohmann::json summary_json(const Input& input, const RunConfig& config, const PipelineResult& result) {
    const SpikeTrains& trains = input.recording.trains;
    const TimeBase& tb = trains.time_base();
    nlohmann::json out{{"input", input.source},
                       {"input_checksum", input.checksum},
                       {"neurons", trains.num_neurons()},
                       {"spikes", trains.num_spikes()},
                       {"duration_s", tb.to_seconds(trains.span().length())},
                       {"tick", tb.describe()},
                       {"config", nlohmann::json::parse(to_json(applied(config, result)))},
                       {"windows", result.windows.size()},
                       {"notes", result.notes}};
    nlohmann::json levels = nlohmann::json::array();
    for (const auto& level : result.episodes.levels) {
        nlohmann::json entry{{"level", level.level}, {"candidates", level.candidates}, {"frequent", level.frequent}, {"threshold", level.threshold}};
        if (level.beat_chance) {
            entry["tested_against_chance"] = level.chance_tests;
            entry["beat_chance"] = *level.beat_chance;
        }
        if (level.significant) entry["significant"] = *level.significant;
        levels.push_back(entry);
    }
    out["episode_levels"] = levels;
    if (!result.episodes.stopped.empty()) out["episodes_stopped"] = result.episodes.stopped;
    nlohmann::json assemblies = nlohmann::json::array();
    for (const Assembly& a : result.assemblies) {
        nlohmann::json members = nlohmann::json::array();
        for (const NeuronId n : a.members) members.push_back(trains.label(n));
        nlohmann::json active = nlohmann::json::array();
        for (const TimeSpan& p : a.active) active.push_back({tb.to_seconds(p.start), tb.to_seconds(p.end)});
        assemblies.push_back({{"id", a.track.id},
                              {"members", members},
                              {"start_s", tb.to_seconds(a.span.start)},
                              {"end_s", tb.to_seconds(a.span.end)},
                              {"active_s", active},
                              {"windows", a.track.windows.size()},
                              {"activations", a.activations.size()}});
        if (a.significance) assemblies.back()["significance"] = io::detail::significance_json(*a.significance);
    }
    out["assemblies"] = assemblies;
    std::map<std::string, std::size_t> events;
    for (const AssemblyEvent& e : result.events) ++events[event_name(e.kind)];
    out["events"] = events;
    nlohmann::json stages = nlohmann::json::array();
    for (const StageTime& s : result.stages) {
        stages.push_back({{"stage", s.stage}, {"seconds", s.seconds}, {"where", s.backend}, {"peak_memory_bytes", s.peak_bytes}});
    }
    out["stages"] = stages;
    if (result.recovery) {
        const Recovery& r = *result.recovery;
        out["recovery"] = {{"chain_recall", r.chain_recall()},
                           {"chain_links", r.chain_links},
                           {"chain_links_found", r.chain_links_found},
                           {"chain_precision", r.chain_precision()},
                           {"long_episodes", r.long_episodes},
                           {"long_episodes_true", r.long_episodes_true},
                           {"assembly_recall", r.assembly_recall()},
                           {"assembly_periods", r.assembly_periods},
                           {"assembly_periods_found", r.assembly_periods_found},
                           {"assembly_precision", r.assembly_precision()},
                           {"assemblies_tracked", r.assemblies_tracked},
                           {"assemblies_true", r.assemblies_true},
                           {"span_error_s", r.span_error_s},
                           {"events", r.events},
                           {"events_found", r.events_found},
                           {"events_reported", r.events_reported},
                           {"events_true", r.events_true},
                           {"event_time_error_s", r.event_time_error_s}};
    }
    return out;
}

// The occurrences of the raster's episodes: the three most frequent of the longest.
std::vector<mining::Occurrence> top_occurrences(const SpikeTrains& trains, const mining::MiningResult& mined) {
    constexpr std::size_t kShown = 3;
    std::vector<const mining::FrequentEpisode*> longest;
    for (const mining::FrequentEpisode& e : mined.episodes) {
        if (!longest.empty() && e.episode.size() > longest.front()->episode.size()) longest.clear();
        if (longest.empty() || e.episode.size() == longest.front()->episode.size()) longest.push_back(&e);
    }
    std::stable_sort(longest.begin(), longest.end(), [](const auto* a, const auto* b) { return a->count > b->count; });
    longest.resize(std::min(longest.size(), kShown));
    std::vector<mining::Occurrence> occurrences;
    for (const mining::FrequentEpisode* e : longest) {
        if (e->episode.size() < 2) continue;
        for (mining::Occurrence& o : mining::find_occurrences(trains, e->episode)) occurrences.push_back(std::move(o));
    }
    return occurrences;
}

}  // namespace

void write_result_tables(const std::string& dir, const SpikeTrains& trains, const PipelineResult& result) {
    const auto file = [&dir](const char* name) { return (fs::path(dir) / name).string(); };
    const TimeBase& tb = trains.time_base();
    io::write_atomically(file("assemblies.csv"), [&](std::ostream& out) {
        // With significance tests, five more columns after the activations.
        const bool tested = std::any_of(result.assemblies.begin(), result.assemblies.end(), [](const Assembly& a) { return a.significance.has_value(); });
        out << "id,start_s,end_s,active_s,first_window,last_window,windows,activations" << (tested ? io::detail::kSignificanceColumns : "")
            << ",members\n";
        for (const Assembly& a : result.assemblies) {
            std::string active;  // "12.5-80.1 150-210.4": each active period in s
            for (const TimeSpan& p : a.active) active += (active.empty() ? "" : " ") + seconds(p.start, tb) + "-" + seconds(p.end, tb);
            const bool seen = !a.track.windows.empty();
            out << a.track.id << ',' << seconds(a.span.start, tb) << ',' << seconds(a.span.end, tb) << ',' << active << ','
                << (seen ? std::to_string(a.track.windows.front()) : "") << ',' << (seen ? std::to_string(a.track.windows.back()) : "") << ','
                << a.track.windows.size() << ',' << a.activations.size() << (tested ? io::detail::significance_csv(a.significance) : "") << ','
                << labels(trains, a.members, " ") << '\n';
        }
    });
    io::write_atomically(file("windows.csv"), [&](std::ostream& out) {
        out << "window,start_s,end_s,edges,inserted,erased,updated,components,largest_component,most_central,cliques,assemblies\n";
        for (const WindowSummary& w : result.windows) {
            std::string ids;
            for (const std::uint32_t id : w.assemblies) ids += (ids.empty() ? "" : " ") + (id == kNoAssembly ? std::string("-") : std::to_string(id));
            out << w.index << ',' << seconds(w.span.start, tb) << ',' << seconds(w.span.end, tb) << ',' << w.edges << ',' << w.inserted << ','
                << w.erased << ',' << w.updated << ',' << w.components << ',' << w.largest_component << ','
                << (w.most_central ? trains.label(*w.most_central) : "") << ',' << w.cliques.size() << ',' << ids << '\n';
        }
    });
    io::write_mining_results(file("episodes.csv"), trains, result.episodes, "ms", false);
}

void remove_previous_results(const std::string& dir) {
    std::error_code error;
    if (!fs::exists(dir, error)) return;
    if (!fs::is_directory(dir, error)) throw UsageError(dir + ": is a file, not a folder of results");
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!is_result_file(name)) {
            throw UsageError(dir + ": holds " + name + ", which is not a result of spikeminer; give another folder");
        }
    }
    fs::remove_all(dir, error);
    if (error) throw Error(dir + ": the previous results could not be removed: " + error.message());
}

void check_results_dir(const std::string& dir, const RunConfig& config) {
    if (dir.empty()) throw UsageError("give a folder for the results (-o DIR)");
    const fs::path target(dir);
    std::error_code error;
    if (fs::exists(target, error)) {
        if (!fs::is_directory(target, error)) throw UsageError(dir + ": is a file; the results go in a new or empty folder");
        if (!fs::is_empty(target, error)) throw UsageError(dir + ": is not empty; the results go in a new or empty folder");
        if (!config.input.empty() && fs::equivalent(target, config.input, error)) throw UsageError(dir + ": is the input");
    }
    const fs::path parent = fs::absolute(target).parent_path();
    if (!fs::is_directory(parent, error)) throw UsageError(dir + ": its folder " + parent.string() + " does not exist");
}

std::string summary_text(const Input& input, const RunConfig& config, const PipelineResult& result) {
    return io::json_text(summary_json(input, config, result), 1);
}

std::vector<std::string> write_results(const std::string& dir, const Input& input, const RunConfig& config, const PipelineResult& result,
                                       Progress* progress, double figure_seconds) {
    const SpikeTrains& trains = input.recording.trains;
    PartialFolder folder(dir);
    if (progress != nullptr) progress->begin("writing the results", 0);
    const std::string config_json = to_json(applied(config, result));
    detail::write_results_h5(folder.file("results.h5"), input, config_json, result, SPIKEMINER_VERSION);
    const std::string summary = summary_text(input, config, result);
    io::write_atomically(folder.file("summary.json"), [&](std::ostream& out) { out << summary << '\n'; });
    write_result_tables(folder.path(), trains, result);
    std::vector<std::string> written = kTableFiles;
    if (config.nwb) {
        if (progress != nullptr) progress->check_cancelled();
        detail::write_results_nwb(folder.file(kNwbFile), (fs::path(dir) / kNwbFile).string(), input, config, result);
        written.push_back(kNwbFile);
    }
    if (figures::figures_available()) {
        std::vector<std::vector<NeuronId>> members;
        for (const Assembly& a : result.assemblies) members.push_back(a.members);
        const std::vector<mining::Occurrence> occurrences = top_occurrences(trains, result.episodes);
        const figures::Figure drawn[] = {figures::raster_figure(trains, members, figures::opening(trains, figure_seconds), occurrences),
                                         timeline_figure(trains, result), graph_figure(trains, result)};
        for (std::size_t f = 0; f < kFigureNames.size(); ++f) {
            for (const char* extension : {".svg", ".png"}) {
                if (progress != nullptr) progress->check_cancelled();
                figures::write_figure(folder.file(kFigureNames[f] + extension), drawn[f]);
                written.push_back(kFigureNames[f] + extension);
            }
        }
    }
    if (progress != nullptr) progress->check_cancelled();
    folder.commit();
    if (progress != nullptr) progress->finish();
    return written;
}

}  // namespace spikeminer::pipeline
