// Kilosort and Phy output folders: spike_times.npy (sample indices), spike_clusters.npy
// (each spike's curated unit; spike_templates.npy, Kilosort's templates, when there is
// none), params.py's sample_rate, and the labels of cluster_group.tsv (Phy's curation) or
// else cluster_KSLabel.tsv (Kilosort's own): only the units labelled good, unless all are
// asked for. A whole sample rate becomes the tick, so that every sample index is a tick.
#include "npy.hpp"
#include "recording.hpp"
#include "text_lines.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace spikeminer::io::detail {
namespace {

namespace fs = std::filesystem;

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// params.py's `sample_rate = 30000.0`, in Hz.
double sample_rate(const std::string& folder) {
    const std::string path = (fs::path(folder) / "params.py").string();
    if (!fs::exists(path)) throw Error(folder + ": a Phy folder needs params.py (its sample_rate); none is there");
    TextLines lines(path);
    std::string_view line;
    while (lines.next(line)) {
        line = trim(line);
        if (!line.starts_with("sample_rate")) continue;
        const auto equals = line.find('=');
        if (equals == std::string_view::npos || trim(line.substr(11, equals - 11)) != "") continue;
        const std::string_view text = trim(line.substr(equals + 1));
        double rate = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rate);
        if (ec != std::errc{} || trim(std::string_view(end, static_cast<std::size_t>(text.data() + text.size() - end))) != "" ||
            !std::isfinite(rate) || rate <= 0 || rate > 1e12) {
            throw Error(path + " line " + std::to_string(lines.line_number()) + ": sample_rate " + in_quotes(text) +
                        " is not a positive number of Hz");
        }
        return rate;
    }
    throw Error(path + ": names no sample_rate (such as `sample_rate = 30000.0`)");
}

// Each cluster's label from the first table of labels there is (empty: none is there).
std::map<std::int64_t, std::string> cluster_labels(const std::string& folder, std::string& used) {
    std::map<std::int64_t, std::string> labels;
    for (const char* name : {"cluster_group.tsv", "cluster_KSLabel.tsv"}) {
        const std::string path = (fs::path(folder) / name).string();
        if (!fs::exists(path)) continue;
        used = name;
        TextLines lines(path);
        std::string_view line;
        bool header = true;
        while (lines.next(line)) {
            if (trim(line).empty()) continue;
            const std::string where = path + " line " + std::to_string(lines.line_number());
            const auto tab = line.find('\t');
            if (tab == std::string_view::npos) throw Error(where + ": expected 'cluster_id<TAB>label', found " + in_quotes(line));
            if (header) {
                header = false;
                if (trim(line.substr(0, tab)) != "cluster_id") throw Error(where + ": the header names no cluster_id column first");
                continue;
            }
            const std::string_view id_text = trim(line.substr(0, tab));
            std::int64_t id = 0;
            const auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
            if (ec != std::errc{} || end != id_text.data() + id_text.size() || id < 0) {
                throw Error(where + ": cluster id " + in_quotes(id_text) + " is not a whole number of 0 or more");
            }
            if (!labels.emplace(id, std::string(trim(line.substr(tab + 1)))).second) {
                throw Error(where + ": cluster " + std::to_string(id) + " is labelled twice");
            }
        }
        if (!labels.empty()) break;  // a table of no rows labels nothing: the next one may
    }
    if (labels.empty()) used.clear();
    return labels;
}

}  // namespace

std::vector<std::string> phy_files(const std::string& folder) {
    std::vector<std::string> files;
    for (const char* name : {"spike_times.npy", "spike_clusters.npy", "spike_templates.npy", "params.py", "cluster_group.tsv", "cluster_KSLabel.tsv"}) {
        const std::string path = (fs::path(folder) / name).string();
        if (fs::exists(path)) files.push_back(path);
    }
    return files;
}

bool is_phy_folder(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) && fs::exists(fs::path(path) / "spike_times.npy", ec);
}

Recording read_phy(const std::string& folder, bool all_units, const std::optional<TimeBase>& time_base) {
    const std::string times_path = (fs::path(folder) / "spike_times.npy").string();
    const NpyColumn samples = read_npy_column(times_path);
    std::string units_path = (fs::path(folder) / "spike_clusters.npy").string();
    if (!fs::exists(units_path)) units_path = (fs::path(folder) / "spike_templates.npy").string();
    if (!fs::exists(units_path)) throw Error(folder + ": a Phy folder needs spike_clusters.npy or spike_templates.npy beside spike_times.npy");
    const NpyColumn units = read_npy_column(units_path);
    if (units.floating) throw Error(units_path + ": holds floats; unit ids are integers");
    if (units.size() != samples.size()) {
        throw Error(units_path + " holds " + std::to_string(units.size()) + " values but " + times_path + " " +
                    std::to_string(samples.size()) + ": one unit per spike is expected");
    }
    const double rate = sample_rate(folder);
    std::string labels_file;
    const std::map<std::int64_t, std::string> labels = cluster_labels(folder, labels_file);
    const bool only_good = !all_units && !labels.empty();
    Recording recording;
    recording.format = SpikeFormat::Phy;
    // A whole sample rate is the tick (each sample index a tick), unless a tick is asked for.
    const bool samples_are_ticks = !time_base && rate == std::floor(rate);
    recording.time_base = samples_are_ticks ? TimeBase{static_cast<std::int64_t>(rate)} : time_base.value_or(TimeBase{});
    std::set<std::int64_t> kept;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (units.integers[i] < 0) throw Error(units_path + ": element " + std::to_string(i) + " is a negative unit id");
        if (!only_good) {
            kept.insert(units.integers[i]);
        } else if (const auto label = labels.find(units.integers[i]); label != labels.end() && label->second == "good") {
            kept.insert(units.integers[i]);
        }
    }
    if (only_good && kept.empty()) {
        throw Error(folder + ": " + labels_file + " labels no unit of the spikes good (give --units all to read them all)");
    }
    std::map<std::int64_t, NeuronId> index;
    for (const std::int64_t id : kept) {
        index.emplace(id, static_cast<NeuronId>(index.size()));
        recording.neurons.labels.push_back(std::to_string(id));
    }
    UninitializedVector<Tick> ticks(samples.size());
    UninitializedVector<NeuronId> neurons(samples.size());
    std::size_t n = 0;
    bool out_of_order = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto found = index.find(units.integers[i]);
        if (found == index.end()) continue;
        double sample = samples.floating ? samples.reals[i] : static_cast<double>(samples.integers[i]);
        if (!std::isfinite(sample) || sample < 0 || (samples.floating && sample != std::floor(sample))) {
            throw Error(times_path + ": element " + std::to_string(i) + " is " + shown(sample) + ", not a sample index (a whole number of 0 or more)");
        }
        Tick tick = 0;
        if (samples_are_ticks && !samples.floating) {
            tick = samples.integers[i];
        } else {
            tick = to_tick(recording.time_base, sample / rate, [&] { return times_path + " element " + std::to_string(i); });
        }
        out_of_order = out_of_order || (n > 0 && tick < ticks[n - 1]);
        ticks[n] = tick;
        neurons[n] = found->second;
        ++n;
    }
    ticks.resize(n);
    neurons.resize(n);
    recording.spikes = SpikeColumns::own(std::move(ticks), std::move(neurons));
    recording.neuron_out_of_order = out_of_order;
    recording.metadata["phy.sample_rate_hz"] = shown(rate);
    recording.metadata["phy.units"] = only_good ? "good (" + labels_file + ")" : labels.empty() ? "all (no labels)" : "all";
    return recording;
}

}  // namespace spikeminer::io::detail
