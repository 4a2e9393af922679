// The project's own HDF5 layout for spike trains, version 1 (documented in the README):
//
//   /                      attributes: spikeminer_format = "spike-trains",
//                          spikeminer_format_version = 1, ticks_per_second (int64),
//                          span_start, span_end (int64 ticks), created_by
//   /spikes/times          int64 [n]   spike times in ticks, sorted by (time, neuron)
//   /spikes/neurons        uint32 [n]  dense neuron index of each spike
//   /neurons/labels        string [N]  the label of each neuron (from the source file)
//   /neurons/groups        string [N]  electrode group of each neuron (optional)
//   /neurons/positions     float64 [N, 2]  x, y of each neuron's electrode in µm (optional)
//   /neurons/observed_intervals        int64 [m, 2] ticks (optional), with
//   /neurons/observed_intervals_index  int64 [N] cumulative ends, as in NWB
//   /metadata              string attributes: provenance (source file, format, ...)
//   /ground_truth          simulated files only: what was embedded (ground_truth_h5.cpp)
#include "ground_truth_h5.hpp"
#include "recording.hpp"
#include "writers.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace spikeminer::io::detail {
namespace {
constexpr std::int64_t kFormatVersion = 1;
constexpr const char* kFormatTag = "spike-trains";
}  // namespace

Recording read_spikeminer_h5(const std::string& path, Progress* progress, bool with_truth) {
    const H5Reader file(path);
    const auto version = file.integer_attribute("/", "spikeminer_format_version");
    if (!version) throw Error(path + ": attribute 'spikeminer_format_version' is missing at the root");
    if (*version > kFormatVersion || *version < 1) {
        throw Error(path + ": spikeminer format version " + std::to_string(*version) + "; this program reads version " +
                    std::to_string(kFormatVersion) + (*version > kFormatVersion ? " (update spikeminer)" : ""));
    }
    const auto ticks_per_second = file.integer_attribute("/", "ticks_per_second");
    if (!ticks_per_second || *ticks_per_second <= 0) {
        throw Error(path + ": root attribute 'ticks_per_second' is missing or not positive");
    }
    Recording recording;
    recording.time_base = TimeBase{*ticks_per_second};
    recording.neurons.labels = file.read_strings("/neurons/labels");
    const std::size_t num_neurons = recording.neurons.labels.size();
    if (std::set<std::string>(recording.neurons.labels.begin(), recording.neurons.labels.end()).size() != num_neurons) {
        throw Error(file.where("/neurons/labels") + " repeats a label");
    }
    if (file.exists("/neurons/groups")) recording.neurons.groups = file.read_strings("/neurons/groups");
    if (file.exists("/neurons/positions")) {
        const std::vector<double> xy = file.read_pairs("/neurons/positions");
        if (xy.size() != 2 * num_neurons) {
            throw Error(file.where("/neurons/positions") + " holds " + std::to_string(xy.size() / 2) + " positions for " +
                        std::to_string(num_neurons) + " neurons");
        }
        for (std::size_t n = 0; n < num_neurons; ++n) {
            if (!std::isfinite(xy[2 * n]) || !std::isfinite(xy[2 * n + 1])) {
                throw Error(file.where("/neurons/positions") + " row " + std::to_string(n) + " is not a finite position");
            }
            recording.neurons.positions.push_back({xy[2 * n], xy[2 * n + 1]});
        }
    }

    if (progress != nullptr) progress->begin("reading " + path, 2);
    UninitializedVector<Tick> times = file.read_integer_column("/spikes/times");
    UninitializedVector<NeuronId> neurons = file.read_indexes("/spikes/neurons");
    if (times.size() != neurons.size()) {
        throw Error(path + ": /spikes/times has " + std::to_string(times.size()) + " values but /spikes/neurons has " +
                    std::to_string(neurons.size()));
    }
    const auto beyond = std::find_if(neurons.begin(), neurons.end(), [&](NeuronId n) { return n >= num_neurons; });
    if (beyond != neurons.end()) {
        throw Error(file.where("/spikes/neurons") + " element " + std::to_string(beyond - neurons.begin()) + " is " +
                    std::to_string(*beyond) + ", but there are " + std::to_string(num_neurons) + " neurons");
    }
    recording.spikes = SpikeColumns::own(std::move(times), std::move(neurons));
    if (progress != nullptr) progress->update(1);

    if (file.exists("/neurons/observed_intervals")) {
        const auto groups = split_by_index(file, file.read_integer_pairs("/neurons/observed_intervals"),
                                           "/neurons/observed_intervals_index", num_neurons, 2);
        for (const auto& rows : groups) {
            auto& spans = recording.neurons.observed.emplace_back();
            for (std::size_t i = 0; i + 1 < rows.size(); i += 2) spans.push_back(TimeSpan{rows[i], rows[i + 1]});
        }
    }
    const auto span_start = file.integer_attribute("/", "span_start");
    const auto span_end = file.integer_attribute("/", "span_end");
    if (span_start && span_end) {
        if (*span_end < *span_start) {
            throw Error(path + ": root attributes span_start (" + std::to_string(*span_start) + ") and span_end (" +
                        std::to_string(*span_end) + "): the recording ends before it starts");
        }
        recording.span = TimeSpan{*span_start, *span_end};
    }
    if (file.exists("/metadata")) recording.metadata = file.string_attributes("/metadata");
    if (with_truth && file.exists("/ground_truth")) recording.truth = read_ground_truth_group(file);
    if (progress != nullptr) progress->finish();
    return recording;
}

void write_spikeminer_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                         const simulator::GroundTruth* truth) {
    H5Writer file(path, name);
    file.set_attribute("/", "spikeminer_format", std::string(kFormatTag));
    file.set_attribute("/", "spikeminer_format_version", kFormatVersion);
    file.set_attribute("/", "ticks_per_second", trains.time_base().ticks_per_second);
    file.set_attribute("/", "span_start", trains.span().start);
    file.set_attribute("/", "span_end", trains.span().end);
    file.set_attribute("/", "created_by", std::string("spikeminer"));
    file.create_group("/spikes");
    file.write("/spikes/times", trains.times());
    file.write("/spikes/neurons", trains.neurons());
    file.create_group("/neurons");
    const NeuronTable& table = trains.neuron_table();
    file.write_strings("/neurons/labels", table.labels);
    if (!table.groups.empty()) file.write_strings("/neurons/groups", table.groups);
    if (!table.positions.empty()) {
        std::vector<double> xy;
        for (const Position& p : table.positions) xy.insert(xy.end(), {p.x, p.y});
        file.write_rows("/neurons/positions", xy, table.positions.size());
    }
    if (!table.observed.empty()) {
        std::vector<std::int64_t> rows;
        std::vector<std::int64_t> ends;
        for (const auto& spans : table.observed) {
            for (const TimeSpan& span : spans) {
                rows.push_back(span.start);
                rows.push_back(span.end);
            }
            ends.push_back(static_cast<std::int64_t>(rows.size() / 2));
        }
        file.write_pairs("/neurons/observed_intervals", rows);
        file.write("/neurons/observed_intervals_index", std::span<const std::int64_t>(ends));
    }
    file.create_group("/metadata");
    for (const auto& [key, value] : trains.metadata()) file.set_attribute("/metadata", key, value);
    if (truth != nullptr) write_ground_truth(file, *truth);
    file.close();
}

}  // namespace spikeminer::io::detail
