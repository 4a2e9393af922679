#pragma once
// Small helpers shared by the app tests: building spike trains by hand, writing and
// reading raw files, gzip, and listing leftover temporary files.

#include "spikeminer/core/spike_trains.hpp"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace spikeminer::test {

/// Spike trains built directly in ticks: spikes as (neuron index, tick).
inline SpikeTrains make_trains(const std::vector<std::string>& labels, const std::vector<std::pair<NeuronId, Tick>>& spikes,
                               TimeBase time_base = TimeBase{}) {
    std::vector<Spike> list;
    list.reserve(spikes.size());
    for (const auto& [neuron, tick] : spikes) list.push_back(Spike{tick, neuron});
    NeuronTable table;
    table.labels = labels;
    return SpikeTrains::from_spikes(std::move(list), std::move(table), time_base);
}

/// Writes bytes to a file exactly as given (binary mode: "\r\n" stays "\r\n").
inline void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("test helper: cannot write " + path);
}

/// The whole content of a file.
inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("test helper: cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `text` gzip-compressed with zlib.
inline void write_gzip(const std::string& path, const std::string& text) {
    gzFile file = gzopen(path.c_str(), "wb9");
    if (file == nullptr) throw std::runtime_error("test helper: cannot create " + path);
    const int written = gzwrite(file, text.data(), static_cast<unsigned>(text.size()));
    const int closed = gzclose(file);
    if (written != static_cast<int>(text.size()) || closed != Z_OK) {
        throw std::runtime_error("test helper: gzip write failed for " + path);
    }
}

/// Names of the entries of `folder` whose name contains ".partial-" (AtomicOutput's temporaries).
inline std::vector<std::string> partial_files(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".partial-") != std::string::npos) names.push_back(name);
    }
    return names;
}

/// Number of entries in `folder`.
inline std::size_t entry_count(const std::filesystem::path& folder) {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++count;
    return count;
}

/// The label of each spike of the merged stream, in stream order.
inline std::vector<std::string> spike_labels(const SpikeTrains& trains) {
    std::vector<std::string> labels;
    labels.reserve(trains.num_spikes());
    for (const NeuronId n : trains.neurons()) labels.push_back(trains.label(n));
    return labels;
}

/// The times of one neuron, in ticks, ascending.
inline std::vector<Tick> times_of(const SpikeTrains& trains, NeuronId n) {
    std::vector<Tick> times;
    for (const std::uint32_t i : trains.spikes_of(n)) times.push_back(trains.times()[i]);
    return times;
}

}  // namespace spikeminer::test
