#pragma once

#include "spikeminer/app/io/spike_format.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spikeminer::io::detail {

/// The first line of the text and CSV files this program writes (then the tick).
inline constexpr std::string_view kWriterLine = "# spikeminer spike trains";


/// What a format reader hands back before the spike trains are built.
struct Recording {
    SpikeFormat format = SpikeFormat::Csv;  ///< what it was read as
    SpikeColumns spikes;  ///< the spikes in the file's order
    NeuronTable neurons;
    TimeBase time_base;
    std::optional<TimeSpan> span;
    std::map<std::string, std::string> metadata;
    /// For formats stored neuron by neuron: whether some neuron's spikes were out of order.
    std::optional<bool> neuron_out_of_order;
    /// What a simulation put into a spikeminer HDF5 file, when the reader was asked for it.
    std::optional<simulator::GroundTruth> truth;
};

/// Converts a time to ticks; when it is not finite or too large, throws Error prefixed
/// with where(), which is called only then (this runs once per spike).
template <typename Where>
Tick to_tick(const TimeBase& time_base, double seconds, Where&& where) {
    try {
        return time_base.from_seconds(seconds);
    } catch (const Error& e) {
        throw Error(std::string(where()) + ": " + e.what());
    }
}

/// A file's format when it is text (CSV or text), from its first data line; nullopt when it
/// is HDF5, whose layout hdf5_layout() looks up where the file is read. Throws Error naming
/// the file when it is missing, empty, binary of no known format or without data lines.
std::optional<SpikeFormat> detect_text_format(const std::string& path);

/// The spike layout of an HDF5 file (NWB, spikeminer, waverepo), for the child process that
/// reads it; throws Error naming the file when it has none of them.
SpikeFormat hdf5_layout(const std::string& path);

/// Whether `path` is a folder holding spike_times.npy (Kilosort, Phy).
bool is_phy_folder(const std::string& path);
/// The files of a Kilosort / Phy folder its reader reads, those that are there.
std::vector<std::string> phy_files(const std::string& folder);
/// A Kilosort / Phy folder's spikes (phy_reader.cpp): the units labelled good, or all.
Recording read_phy(const std::string& folder, bool all_units, const std::optional<TimeBase>& time_base);

/// Format readers. Each validates its layout and throws Error naming the file and the
/// line or dataset at fault.
Recording read_delimited_text(const std::string& path, char delimiter, std::optional<TimeBase> time_base,
                              Progress* progress);
Recording read_nwb(const std::string& path, const TimeBase& time_base, Progress* progress);
/// With `with_truth`, also the /ground_truth group when the file has one.
Recording read_spikeminer_h5(const std::string& path, Progress* progress, bool with_truth = false);
Recording read_waverepo(const std::string& path, const TimeBase& time_base, Progress* progress);

}  // namespace spikeminer::io::detail

namespace spikeminer::io::detail {

/// Fills recording.spikes from a ragged array: `times` (seconds) concatenated neuron by
/// neuron, `ends[n]` the cumulative end of neuron n's spikes (the NWB VectorIndex), with
/// neuron n's id taken from `ids[n]`. Checks that the ends are monotone and cover `times`
/// exactly; errors name `file` and the datasets `times_path` and `index_path`.
void spikes_from_ragged(Recording& recording, const std::vector<double>& times, const std::vector<std::int64_t>& ends,
                        const std::vector<NeuronId>& ids, const std::string& file, const std::string& times_path,
                        const std::string& index_path, Progress* progress);

}  // namespace spikeminer::io::detail
