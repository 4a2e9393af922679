// See batch.hpp.
#include "spikeminer/app/pipeline/batch.hpp"

#include "batch_parts.hpp"

#include "../io/json_text.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/core/error.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace spikeminer::pipeline {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Json parse_manifest(const std::string& path) {
    io::check_input_file(path);
    std::ifstream file(path);
    if (!file) throw UsageError(path + ": cannot be read");
    std::stringstream text;
    text << file.rdbuf();
    try {
        return Json::parse(text.str());
    } catch (const Json::exception& e) {
        throw UsageError(path + ": not a JSON manifest: " + e.what());
    }
}

// The recording's config: base, shared keys, its own keys, the command line's.
BatchEntry entry_of(const Json& recording, const Json& shared, const RunConfig& base, const std::function<void(RunConfig&)>& last,
                    const fs::path& folder, const std::string& where) {
    BatchEntry entry;
    entry.config = base;
    apply_json(entry.config, shared.dump(), where);
    Json own = recording.is_string() ? Json{{"input", recording}} : recording;
    if (!own.is_object()) throw UsageError(where + ": a recording is a path or an object with \"input\"");
    if (own.contains("name")) {
        if (!own["name"].is_string()) throw UsageError(where + ": 'name' must be a string");
        entry.name = own["name"].get<std::string>();
        own.erase("name");
    }
    apply_json(entry.config, own.dump(), where);
    if (last) last(entry.config);
    if (!entry.config.input.empty() && fs::path(entry.config.input).is_relative()) {
        entry.config.input = (folder / entry.config.input).lexically_normal().string();
    }
    if (entry.name.empty() && !entry.config.input.empty()) entry.name = fs::path(entry.config.input).stem().string();
    if (entry.name.empty()) throw UsageError(where + ": give a \"name\" for its results folder");
    if (entry.name == "." || entry.name == ".." || entry.name.find('/') != std::string::npos || entry.name.rfind("batch-summary", 0) == 0) {
        throw UsageError(where + ": '" + entry.name + "' cannot name a results folder");
    }
    try {
        validate(entry.config);
    } catch (const UsageError& e) {
        throw UsageError(where + ": " + e.what());
    }
    return entry;
}

// Whether `folder` holds a run's complete results (write_results puts them in place whole).
bool has_results(const fs::path& folder) {
    std::error_code error;
    return fs::is_regular_file(folder / "summary.json", error) && fs::is_regular_file(folder / "results.h5", error);
}

// What an earlier run's summary.json says of its recording.
void read_counts(const fs::path& folder, BatchOutcome& outcome) {
    std::ifstream file(folder / "summary.json");
    const Json summary = Json::parse(file, nullptr, false);
    if (!summary.is_object()) return;
    outcome.neurons = summary.value("neurons", std::size_t{0});
    outcome.spikes = summary.value("spikes", std::size_t{0});
    outcome.windows = summary.value("windows", std::size_t{0});
    if (summary.contains("assemblies") && summary["assemblies"].is_array()) outcome.assemblies = summary["assemblies"].size();
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    return quoted + "\"";
}

}  // namespace

namespace detail {

void make_batch_dir(const std::string& dir) {
    std::error_code error;
    if (fs::exists(dir, error) && !fs::is_directory(dir, error)) throw UsageError(dir + ": is a file; a batch's results go in a folder");
    fs::create_directories(dir, error);
    if (error) throw Error(dir + ": cannot be made: " + error.message());
}

BatchOutcome run_entry(const BatchEntry& entry, const std::string& dir, Progress* progress, double figure_seconds) {
    BatchOutcome outcome;
    outcome.name = entry.name;
    outcome.input = entry.config.input.empty() ? "simulated " + entry.config.simulate : entry.config.input;
    const fs::path folder = fs::path(dir) / entry.name;
    if (has_results(folder)) {
        outcome.status = BatchOutcome::Status::DoneEarlier;
        read_counts(folder, outcome);
        return outcome;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
        check_results_dir(folder.string(), entry.config);
        const Input input = load_input(entry.config, progress);
        const PipelineResult result = run_pipeline(input, entry.config, progress);
        write_results(folder.string(), input, entry.config, result, progress, figure_seconds);
        outcome.neurons = input.recording.trains.num_neurons();
        outcome.spikes = input.recording.trains.num_spikes();
        outcome.windows = result.windows.size();
        outcome.assemblies = result.assemblies.size();
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {  // Error, UsageError, GpuOutOfMemory, bad_alloc: this recording only
        outcome.status = BatchOutcome::Status::Failed;
        outcome.error = e.what();
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

std::string outcome_text(const BatchOutcome& o) {
    const Json row{{"name", o.name}, {"input", o.input}, {"status", status_name(o.status)}, {"error", o.error},
                   {"seconds", o.seconds}, {"neurons", o.neurons}, {"spikes", o.spikes}, {"windows", o.windows},
                   {"assemblies", o.assemblies}};
    return row.dump();
}

BatchOutcome outcome_from_text(const std::string& text) {
    const Json row = Json::parse(text);
    BatchOutcome o;
    o.name = row.at("name").get<std::string>();
    o.input = row.at("input").get<std::string>();
    const std::string status = row.at("status").get<std::string>();
    for (const auto s : {BatchOutcome::Status::Done, BatchOutcome::Status::DoneEarlier, BatchOutcome::Status::Failed}) {
        if (status == status_name(s)) o.status = s;
    }
    o.error = row.at("error").get<std::string>();
    o.seconds = row.at("seconds").get<double>();
    o.neurons = row.at("neurons").get<std::size_t>();
    o.spikes = row.at("spikes").get<std::size_t>();
    o.windows = row.at("windows").get<std::size_t>();
    o.assemblies = row.at("assemblies").get<std::size_t>();
    return o;
}

void write_batch_summary(const std::string& dir, const std::vector<BatchOutcome>& outcomes, const std::string& manifest) {
    Json rows = Json::array();
    for (const BatchOutcome& o : outcomes) rows.push_back(Json::parse(outcome_text(o)));
    const std::string json_path = (fs::path(dir) / "batch-summary.json").string();
    const std::string csv_path = (fs::path(dir) / "batch-summary.csv").string();
    io::OutputSet outputs({json_path, csv_path}, {manifest});
    io::write_atomically(json_path, [&](std::ostream& out) { out << io::json_text(Json{{"recordings", rows}}, 1) << '\n'; });
    io::write_atomically(csv_path, [&](std::ostream& out) {
        out << "name,input,status,seconds,neurons,spikes,windows,assemblies,error\n";
        for (const BatchOutcome& o : outcomes) {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.3f", o.seconds);
            out << csv_field(o.name) << ',' << csv_field(o.input) << ',' << status_name(o.status) << ',' << seconds << ','
                << o.neurons << ',' << o.spikes << ',' << o.windows << ',' << o.assemblies << ',' << csv_field(o.error) << '\n';
        }
    });
    outputs.commit();
}

}  // namespace detail

std::vector<BatchEntry> read_manifest(const std::string& path, const RunConfig& base, const std::function<void(RunConfig&)>& last) {
    Json manifest = parse_manifest(path);
    if (!manifest.is_object() || !manifest.contains("recordings") || !manifest["recordings"].is_array()) {
        throw UsageError(path + ": a manifest is a JSON object with \"recordings\": [...]");
    }
    const Json recordings = manifest["recordings"];
    manifest.erase("recordings");
    if (manifest.contains("input") || manifest.contains("name")) {
        throw UsageError(path + ": 'input' and 'name' belong to each recording, not to the whole batch");
    }
    if (recordings.empty()) throw UsageError(path + ": the manifest lists no recording");
    const fs::path folder = fs::absolute(path).parent_path();
    std::vector<BatchEntry> entries;
    std::set<std::string> names;
    for (std::size_t i = 0; i < recordings.size(); ++i) {
        const std::string where = path + ", recording " + std::to_string(i + 1);
        entries.push_back(entry_of(recordings[i], manifest, base, last, folder, where));
        if (!names.insert(entries.back().name).second) throw UsageError(where + ": the name '" + entries.back().name + "' is used twice");
    }
    return entries;
}

std::string status_name(BatchOutcome::Status status) {
    switch (status) {
        case BatchOutcome::Status::Done: return "done";
        case BatchOutcome::Status::DoneEarlier: return "done earlier";
        case BatchOutcome::Status::Failed: return "failed";
    }
    return "failed";
}

std::vector<BatchOutcome> run_batch(const std::vector<BatchEntry>& entries, const std::string& dir, const std::string& manifest,
                                    Progress* progress, double figure_seconds,
                                    const std::function<void(const BatchOutcome&)>& on_outcome) {
    detail::make_batch_dir(dir);
    std::vector<BatchOutcome> outcomes;
    for (const BatchEntry& entry : entries) {
        outcomes.push_back(detail::run_entry(entry, dir, progress, figure_seconds));
        if (on_outcome) on_outcome(outcomes.back());
    }
    detail::write_batch_summary(dir, outcomes, manifest);
    return outcomes;
}

}  // namespace spikeminer::pipeline
