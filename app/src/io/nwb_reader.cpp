// Reader for Neurodata Without Borders 2.x files: the Units table (/units).
#include "hdf5_read.hpp"
#include "nwb_units.hpp"
#include "recording.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/label_indexer.hpp"

#include <algorithm>
#include <numeric>

namespace spikeminer::io::detail {
namespace {

// Optional per-unit observation intervals (obs_intervals + obs_intervals_index).
std::vector<std::vector<TimeSpan>> read_observed(const H5Reader& file, std::size_t units, const TimeBase& time_base) {
    if (!file.exists("/units/obs_intervals")) return {};
    const auto groups = split_by_index(file, file.read_pairs("/units/obs_intervals"), "/units/obs_intervals_index", units, 2);
    std::vector<std::vector<TimeSpan>> observed(units);
    std::size_t row = 0;
    for (std::size_t n = 0; n < units; ++n) {
        for (std::size_t i = 0; i + 1 < groups[n].size(); i += 2, ++row) {
            const auto where = [&] { return file.where("/units/obs_intervals") + " row " + std::to_string(row); };
            const TimeSpan span{to_tick(time_base, groups[n][i], where), to_tick(time_base, groups[n][i + 1], where)};
            if (span.end < span.start) throw Error(where() + " ends before it starts");
            observed[n].push_back(span);
        }
    }
    return observed;
}

std::vector<std::string> read_group_names(const H5Reader& file, std::size_t units) {
    const std::string path = "/units/electrode_group";
    if (!file.exists(path)) return {};
    auto names = file.read_reference_names(path);
    if (names.size() != units) {
        throw Error(file.where(path) + " has " + std::to_string(names.size()) + " entries for " +
                    std::to_string(units) + " units");
    }
    return names;
}

}  // namespace

std::vector<std::string> nwb_unit_names(const H5Reader& file, std::size_t units) {
    std::vector<std::int64_t> ids(units);
    std::iota(ids.begin(), ids.end(), std::int64_t{0});
    if (file.exists("/units/id")) {
        ids = file.read_integers("/units/id");
        if (ids.size() != units) {
            throw Error(file.where("/units/id") + " has " + std::to_string(ids.size()) + " ids for " + std::to_string(units) +
                        " units in /units/spike_times_index");
        }
    }
    if (file.exists("/units/label")) {
        auto names = file.read_strings("/units/label");
        if (names.size() != units) {
            throw Error(file.where("/units/label") + " has " + std::to_string(names.size()) + " labels for " + std::to_string(units) + " units");
        }
        return names;
    }
    std::vector<std::string> names(units);
    for (std::size_t n = 0; n < units; ++n) names[n] = std::to_string(ids[n]);
    return names;
}

Recording read_nwb(const std::string& path, const TimeBase& time_base, Progress* progress) {
    const H5Reader file(path);
    if (!file.exists("/units")) throw Error(path + ": no Units table (/units): this NWB file holds no sorted spikes");
    const std::string times_path = "/units/spike_times";
    const std::string index_path = "/units/spike_times_index";
    if (!file.exists(times_path)) throw Error(file.where(times_path) + " is missing: the Units table has no spikes");
    if (!file.exists(index_path)) throw Error(file.where(index_path) + " is missing: spikes cannot be assigned to units");

    const auto ends = file.read_integers(index_path);
    const std::size_t units = ends.size();
    const std::vector<std::string> names = nwb_unit_names(file, units);
    const std::string names_path = file.exists("/units/label") ? "/units/label" : "/units/id";
    LabelIndexer labels;
    std::vector<NeuronId> provisional(units);
    for (std::size_t n = 0; n < units; ++n) {
        provisional[n] = labels.intern(names[n]);
        if (labels.size() != n + 1) throw Error(file.where(names_path) + " repeats unit " + names[n]);
    }
    auto [final_labels, remap] = labels.finish();
    std::vector<NeuronId> ids(units);
    for (std::size_t n = 0; n < units; ++n) ids[n] = remap[provisional[n]];

    Recording recording;
    recording.time_base = time_base;
    spikes_from_ragged(recording, file.read_numbers(times_path), ends, ids, path, times_path, index_path, progress);

    // Per-unit tables come in file order; reorder them to the dense (numeric id) order.
    const auto reorder = [&](auto table) {
        decltype(table) ordered(table.size());
        for (std::size_t n = 0; n < table.size(); ++n) ordered[ids[n]] = std::move(table[n]);
        return ordered;
    };
    recording.neurons.labels = std::move(final_labels);
    recording.neurons.groups = reorder(read_group_names(file, units));
    recording.neurons.observed = reorder(read_observed(file, units, time_base));

    if (file.exists("/intervals/epochs/start_time") && file.exists("/intervals/epochs/stop_time")) {
        const auto starts = file.read_numbers("/intervals/epochs/start_time");
        const auto stops = file.read_numbers("/intervals/epochs/stop_time");
        if (!starts.empty() && !stops.empty()) {
            const auto where = [&] { return file.where("/intervals/epochs"); };
            recording.span = TimeSpan{to_tick(time_base, *std::min_element(starts.begin(), starts.end()), where),
                                      to_tick(time_base, *std::max_element(stops.begin(), stops.end()), where)};
        }
    }
    for (const char* field : {"identifier", "session_description", "session_start_time"}) {
        if (const auto value = file.first_value_as_text(std::string("/") + field)) {
            recording.metadata[std::string("nwb.") + field] = *value;
        }
    }
    if (const auto version = file.string_attribute("/", "nwb_version")) recording.metadata["nwb.version"] = *version;
    return recording;
}

}  // namespace spikeminer::io::detail
