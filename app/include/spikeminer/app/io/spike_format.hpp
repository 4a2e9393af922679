#pragma once

#include <optional>
#include <string>
#include <vector>

namespace spikeminer::io {

/// The spike-train file formats the program reads and writes.
enum class SpikeFormat {
    Csv,         ///< text with a header, `unit,time_s`, comma separated (optionally gzip)
    Text,        ///< two whitespace-separated columns `id time_s`, no header (optionally gzip)
    Nwb,         ///< Neurodata Without Borders 2.x, the Units table
    Spikeminer,  ///< this program's own HDF5 layout (integer ticks, labels, provenance)
    Waverepo,    ///< the waverepo lab layout: /spikes (s) concatenated by unit, /sCount
    Phy,         ///< a Kilosort / Phy output folder (spike_times.npy, ...); read, not written
};

/// "csv", "text", "nwb", "spikeminer", "waverepo", "phy".
std::string format_name(SpikeFormat format);

/// Parses a --format value; throws UsageError listing the choices.
SpikeFormat parse_spike_format(const std::string& name);

/// Looks inside the file (HDF5 layout, or the first text line) and names its format.
/// Throws Error naming the file when it is missing, empty or of no known layout.
SpikeFormat detect_spike_format(const std::string& path);

/// Whether `path` is a Kilosort / Phy output folder (one holding spike_times.npy).
bool is_sorter_folder(const std::string& path);

/// The files a recording is read from: the file itself, or for a Kilosort / Phy folder the
/// ones its reader reads (spike times, units, params.py, the labels), in that order.
std::vector<std::string> recording_files(const std::string& path);

/// The kind a spikeminer HDF5 file states at its root (attribute spikeminer_format:
/// "spike-trains", "pipeline-results", "mining-results"); empty for any other file. Read in
/// a child process, as every HDF5 file is.
std::string spikeminer_file_kind(const std::string& path);

/// The format an output path asks for by its extension (.csv, .csv.gz, .txt, .h5, .nwb);
/// nullopt when the extension says nothing.
std::optional<SpikeFormat> format_from_extension(const std::string& path);

}  // namespace spikeminer::io
