// Writer for Neurodata Without Borders 2.4: the NWBFile fields the schema requires and a
// Units table (id, spike_times, spike_times_index, electrode group names when known).
#include "nwb_types.hpp"
#include "writers.hpp"

#include "spikeminer/core/label_indexer.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>

namespace spikeminer::io::detail {
namespace {

std::string new_object_id() {
    std::random_device device;
    std::mt19937_64 random(device());
    const std::uint64_t high = random();
    const std::uint64_t low = random();
    char text[40];
    // A version 4, variant 1 UUID.
    std::snprintf(text, sizeof text, "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-%04" PRIx64 "-%012" PRIx64, high >> 32,
                  (high >> 16) & 0xFFFF, high & 0xFFF, 0x8000 | ((low >> 48) & 0x3FFF), low & std::uint64_t{0xFFFFFFFFFFFF});
    return text;
}

std::string now_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[40];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S+00:00", &utc);
    return text;
}

}  // namespace

void mark(H5Writer& file, const std::string& object, const char* name_space, const char* type) {
    file.set_attribute(object, "namespace", std::string(name_space));
    file.set_attribute(object, "neurodata_type", std::string(type));
    file.set_attribute(object, "object_id", new_object_id());
}

void write_nwb(const std::string& path, const std::string& name, const SpikeTrains& trains) {
    H5Writer file(path, name);
    mark(file, "/", "core", "NWBFile");
    file.set_attribute("/", "nwb_version", std::string("2.4.0"));
    const auto& metadata = trains.metadata();
    const auto value_or = [&](const char* key, std::string fallback) {
        const auto it = metadata.find(key);
        return it != metadata.end() ? it->second : fallback;
    };
    const std::string created = now_iso8601();
    file.write_strings("/identifier", {value_or("nwb.identifier", new_object_id())});
    file.write_strings("/session_description",
                       {value_or("nwb.session_description", "spike trains written by spikeminer")});
    const std::string start = value_or("nwb.session_start_time", created);
    file.write_strings("/session_start_time", {start});
    file.write_strings("/timestamps_reference_time", {start});
    file.write_strings("/file_create_date", {created});
    for (const char* group : {"/acquisition", "/analysis", "/general", "/processing", "/stimulus",
                              "/stimulus/presentation", "/stimulus/templates", "/units"}) {
        file.create_group(group);
    }

    mark(file, "/units", "core", "Units");
    file.set_attribute("/units", "description", std::string("units exported by spikeminer"));

    // NWB unit ids are integers. Integer labels are the ids; otherwise the ids are the
    // positions and the labels go into a `label` column, which the reader prefers.
    bool integer_labels = true;
    for (NeuronId n = 0; n < trains.num_neurons() && integer_labels; ++n) {
        integer_labels = !canonical_integer_label(trains.label(n)).empty();
    }
    std::vector<std::int64_t> ids(trains.num_neurons());
    std::vector<double> seconds;
    seconds.reserve(trains.num_spikes());
    std::vector<std::int64_t> ends(trains.num_neurons());
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        ids[n] = integer_labels ? std::stoll(canonical_integer_label(trains.label(n))) : static_cast<std::int64_t>(n);
        for (const std::uint32_t i : trains.spikes_of(n)) seconds.push_back(trains.time_base().to_seconds(trains.times()[i]));
        ends[n] = static_cast<std::int64_t>(seconds.size());
    }
    if (!integer_labels) {
        file.write_strings("/units/label", trains.neuron_table().labels);
        mark(file, "/units/label", "hdmf-common", "VectorData");
        file.set_attribute("/units/label", "description", std::string("the unit's name in the source recording"));
    }
    file.write("/units/id", std::span<const std::int64_t>(ids));
    mark(file, "/units/id", "hdmf-common", "ElementIdentifiers");
    file.write("/units/spike_times", std::span<const double>(seconds));
    mark(file, "/units/spike_times", "hdmf-common", "VectorData");
    file.set_attribute("/units/spike_times", "description", std::string("the spike times for each unit"));
    file.set_attribute("/units/spike_times", "unit", std::string("seconds"));
    file.write("/units/spike_times_index", std::span<const std::int64_t>(ends));
    mark(file, "/units/spike_times_index", "hdmf-common", "VectorIndex");
    file.set_attribute("/units/spike_times_index", "description", std::string("Index for VectorData 'spike_times'"));
    file.set_reference_attribute("/units/spike_times_index", "target", "/units/spike_times");
    file.set_attribute("/units", "colnames",
                       integer_labels ? std::vector<std::string>{"spike_times"}
                                      : std::vector<std::string>{"spike_times", "label"});
    file.close();
}

}  // namespace spikeminer::io::detail
