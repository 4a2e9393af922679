// results.nwb: the run's results kept beside the units they were found in, as NWB 2 types
// that pynwb, hdmf and DANDI read (the input NWB file is copied, never changed):
//   /processing/spikeminer                ProcessingModule (core)
//     assemblies                          DynamicTable (hdmf-common), one row per assembly,
//                                         id = the assembly's id:
//       members, members_index            DynamicTableRegion into /units and its VectorIndex
//       start_time, stop_time             float64 s: from its first active period's start to its last one's end
//       windows, windows_index            int64, ragged: the co-firing windows it was seen in
//       activation_times, _index          float64 s, ragged: its activations
//     active_periods                      TimeIntervals (core): start_time, stop_time, and
//                                         assembly, a DynamicTableRegion into assemblies
//     episodes                            DynamicTable: episode (text, delays in ms), neurons
//                                         (+ _index, a region into /units), count, and with
//                                         the test against chance p, p_adjusted
// For a recording that is not NWB the file is new: the NWBFile fields and a Units table of
// its spikes (nwb_writer.cpp), one row per neuron in the recording's order.
#include "results_nwb.hpp"

#include "../io/nwb_types.hpp"
#include "../io/nwb_units.hpp"
#include "../io/writers.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

namespace spikeminer::pipeline::detail {
namespace {

using io::detail::H5Writer;
using io::detail::mark;

constexpr const char* kModule = "/processing/spikeminer";

// Each neuron's row in the copied file's Units table, named as the NWB reader names them.
std::vector<std::int64_t> unit_rows(const std::string& path, const std::string& name, const SpikeTrains& trains) {
    const io::detail::H5Reader file(path);
    const std::vector<std::string> labels = io::detail::nwb_unit_names(file, file.length("/units/spike_times_index"));
    std::unordered_map<std::string, std::int64_t> row;
    for (std::size_t r = 0; r < labels.size(); ++r) row.emplace(labels[r], static_cast<std::int64_t>(r));
    std::vector<std::int64_t> rows(trains.num_neurons());
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        const auto it = row.find(trains.label(n));
        if (it == row.end()) throw Error(name + ": unit " + trains.label(n) + " of the recording is not in the copy's /units");
        rows[n] = it->second;
    }
    return rows;
}

void vector_data(H5Writer& file, const std::string& path, const std::string& description) {
    mark(file, path, "hdmf-common", "VectorData");
    file.set_attribute(path, "description", description);
}

template <typename T>
void column(H5Writer& file, const std::string& path, const std::vector<T>& values, const std::string& description) {
    file.write(path, std::span<const T>(values));
    vector_data(file, path, description);
}

// A ragged column's index: the cumulative ends of its rows.
void index_of(H5Writer& file, const std::string& path, const std::vector<std::int64_t>& ends) {
    file.write(path + "_index", std::span<const std::int64_t>(ends));
    mark(file, path + "_index", "hdmf-common", "VectorIndex");
    file.set_attribute(path + "_index", "description", "Index for VectorData '" + path.substr(path.rfind('/') + 1) + "'");
    file.set_reference_attribute(path + "_index", "target", path);
}

// Rows of another table (`table`), as a DynamicTableRegion.
void region(H5Writer& file, const std::string& path, const std::vector<std::int64_t>& rows, const std::string& table,
            const std::string& description) {
    file.write(path, std::span<const std::int64_t>(rows));
    mark(file, path, "hdmf-common", "DynamicTableRegion");
    file.set_attribute(path, "description", description);
    file.set_reference_attribute(path, "table", table);
}

void table(H5Writer& file, const std::string& path, const char* name_space, const char* type, const std::string& description,
           const std::vector<std::int64_t>& ids, const std::vector<std::string>& columns) {
    mark(file, path, name_space, type);
    file.set_attribute(path, "description", description);
    file.set_attribute(path, "colnames", columns);
    file.write(path + "/id", std::span<const std::int64_t>(ids));
    mark(file, path + "/id", "hdmf-common", "ElementIdentifiers");
}

std::vector<std::int64_t> row_numbers(std::size_t rows) {
    std::vector<std::int64_t> ids(rows);
    for (std::size_t i = 0; i < rows; ++i) ids[i] = static_cast<std::int64_t>(i);
    return ids;
}

void write_assemblies(H5Writer& file, const SpikeTrains& trains, const PipelineResult& result, const std::vector<std::int64_t>& unit_row) {
    const TimeBase& tb = trains.time_base();
    const std::string path = std::string(kModule) + "/assemblies";
    file.create_group(path);
    std::vector<std::int64_t> ids, members, member_ends, windows, window_ends, activation_ends;
    std::vector<double> starts, stops, activations;
    for (const Assembly& a : result.assemblies) {
        ids.push_back(a.track.id);
        for (const NeuronId n : a.members) members.push_back(unit_row[n]);
        member_ends.push_back(static_cast<std::int64_t>(members.size()));
        starts.push_back(tb.to_seconds(a.span.start));
        stops.push_back(tb.to_seconds(a.span.end));
        for (const std::size_t w : a.track.windows) windows.push_back(static_cast<std::int64_t>(w));
        window_ends.push_back(static_cast<std::int64_t>(windows.size()));
        for (const Tick t : a.activations) activations.push_back(tb.to_seconds(t));
        activation_ends.push_back(static_cast<std::int64_t>(activations.size()));
    }
    table(file, path, "hdmf-common", "DynamicTable", "neuron assemblies through time found by spikeminer (assemblies.csv)", ids,
          {"members", "start_time", "stop_time", "windows", "activation_times"});
    region(file, path + "/members", members, "/units", "the assembly's members: rows of the Units table");
    index_of(file, path + "/members", member_ends);
    column(file, path + "/start_time", starts, "start of its first active period, in s");
    column(file, path + "/stop_time", stops, "end of its last active period, in s");
    column(file, path + "/windows", windows, "the co-firing windows it was seen in (rows of windows.csv)");
    index_of(file, path + "/windows", window_ends);
    column(file, path + "/activation_times", activations, "times at which more than half its members fire within the synchrony lag, in s");
    index_of(file, path + "/activation_times", activation_ends);

    const std::string periods = std::string(kModule) + "/active_periods";
    file.create_group(periods);
    std::vector<std::int64_t> owner;
    std::vector<double> period_starts, period_stops;
    for (std::size_t i = 0; i < result.assemblies.size(); ++i) {
        for (const TimeSpan& p : result.assemblies[i].active) {
            owner.push_back(static_cast<std::int64_t>(i));
            period_starts.push_back(tb.to_seconds(p.start));
            period_stops.push_back(tb.to_seconds(p.end));
        }
    }
    table(file, periods, "core", "TimeIntervals", "the assemblies' active periods", row_numbers(owner.size()),
          {"start_time", "stop_time", "assembly"});
    column(file, periods + "/start_time", period_starts, "Start time of epoch, in seconds");
    column(file, periods + "/stop_time", period_stops, "Stop time of epoch, in seconds");
    region(file, periods + "/assembly", owner, path, "the assembly active: a row of the assemblies table");
}

void write_episodes(H5Writer& file, const SpikeTrains& trains, const PipelineResult& result, const std::vector<std::int64_t>& unit_row) {
    const std::string path = std::string(kModule) + "/episodes";
    file.create_group(path);
    const auto& episodes = result.episodes.episodes;
    const bool chance = std::any_of(episodes.begin(), episodes.end(), [](const auto& e) { return e.chance.has_value(); });
    std::vector<std::string> texts;
    std::vector<std::int64_t> neurons, ends, counts;
    std::vector<double> p, p_adjusted;
    for (const auto& found : episodes) {
        texts.push_back(mining::format_episode(found.episode, trains, "ms"));
        for (const NeuronId n : found.episode.neurons) neurons.push_back(unit_row[n]);
        ends.push_back(static_cast<std::int64_t>(neurons.size()));
        counts.push_back(static_cast<std::int64_t>(found.count));
        p.push_back(found.chance ? found.chance->p : 1.0);
        p_adjusted.push_back(found.chance ? found.chance->p_adjusted : 1.0);
    }
    std::vector<std::string> columns{"episode", "neurons", "count"};
    if (chance) columns.insert(columns.end(), {"p", "p_adjusted"});
    table(file, path, "hdmf-common", "DynamicTable", "frequent serial episodes found by spikeminer (episodes.csv)",
          row_numbers(episodes.size()), columns);
    file.write_strings(path + "/episode", texts);
    vector_data(file, path + "/episode", "the episode: its neurons in firing order and the delays between them, in ms");
    region(file, path + "/neurons", neurons, "/units", "its neurons in firing order: rows of the Units table");
    index_of(file, path + "/neurons", ends);
    column(file, path + "/count", counts, "its non-overlapped occurrences");
    if (chance) {
        column(file, path + "/p", p, "its test against chance (1 for single neurons, which are not tested)");
        column(file, path + "/p_adjusted", p_adjusted, "p corrected among its level's candidates");
    }
}

}  // namespace

void write_results_nwb(const std::string& path, const std::string& name, const Input& input, const RunConfig& config,
                       const PipelineResult& result) {
    const SpikeTrains& trains = input.recording.trains;
    const auto format = trains.metadata().find("source.format");
    std::vector<std::int64_t> unit_row;
    if (!config.input.empty() && format != trains.metadata().end() && format->second == "nwb") {
        std::error_code error;
        std::filesystem::copy_file(config.input, path, std::filesystem::copy_options::overwrite_existing, error);
        if (error) throw Error(name + ": cannot copy " + config.input + ": " + error.message());
        unit_row = unit_rows(path, name, trains);
    } else {
        io::detail::write_nwb(path, name, trains);
        unit_row = row_numbers(trains.num_neurons());
    }
    H5Writer file = H5Writer::open_existing(path, name);
    if (!file.exists("/processing")) file.create_group("/processing");
    if (file.exists(kModule)) file.remove(kModule);
    file.create_group(kModule);
    mark(file, kModule, "core", "ProcessingModule");
    file.set_attribute(kModule, "description", std::string("neuron assemblies and firing sequences found by spikeminer"));
    write_assemblies(file, trains, result, unit_row);
    write_episodes(file, trains, result, unit_row);
    file.close();
}

}  // namespace spikeminer::pipeline::detail
