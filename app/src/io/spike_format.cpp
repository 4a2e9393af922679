#include "spikeminer/app/io/spike_format.hpp"

#include "hdf5_isolated.hpp"
#include "hdf5_read.hpp"
#include "recording.hpp"
#include "text_lines.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <hdf5.h>

#include <array>
#include <filesystem>
#include <string_view>

namespace spikeminer::io {
namespace {

struct FormatName {
    SpikeFormat format;
    const char* name;
};
constexpr std::array kNames{FormatName{SpikeFormat::Csv, "csv"}, FormatName{SpikeFormat::Text, "text"},
                            FormatName{SpikeFormat::Nwb, "nwb"}, FormatName{SpikeFormat::Spikeminer, "spikeminer"},
                            FormatName{SpikeFormat::Waverepo, "waverepo"}, FormatName{SpikeFormat::Phy, "phy"}};

}  // namespace

std::string format_name(SpikeFormat format) {
    for (const auto& entry : kNames) {
        if (entry.format == format) return entry.name;
    }
    return "unknown";
}

SpikeFormat parse_spike_format(const std::string& name) {
    for (const auto& entry : kNames) {
        if (name == entry.name) return entry.format;
    }
    throw UsageError("unknown format '" + name + "': choose csv, text, nwb, spikeminer, waverepo or phy");
}

bool is_sorter_folder(const std::string& path) { return detail::is_phy_folder(path); }

std::vector<std::string> recording_files(const std::string& path) {
    if (!detail::is_phy_folder(path)) return {path};
    return detail::phy_files(path);
}

std::string spikeminer_file_kind(const std::string& path) {
    if (detail::is_phy_folder(path) || detail::detect_text_format(path)) return {};
    std::string kind;
    detail::run_isolated(
        path,
        [&](detail::Writer& out) {
            const detail::H5Reader file(path);
            out.text(file.string_attribute("/", "spikeminer_format").value_or(""));
        },
        [&](detail::Reader& in) { kind = in.text(); }, nullptr);
    return kind;
}

SpikeFormat detect_spike_format(const std::string& path) {
    if (detail::is_phy_folder(path)) return SpikeFormat::Phy;
    if (const auto text = detail::detect_text_format(path)) return *text;
    // An HDF5 file: its layout looked up in a child process (hdf5_isolated.hpp).
    SpikeFormat layout{};
    detail::run_isolated(
        path, [&](detail::Writer& out) { out.value(detail::hdf5_layout(path)); },
        [&](detail::Reader& in) { layout = in.value<SpikeFormat>(); }, nullptr);
    return layout;
}

namespace detail {

SpikeFormat hdf5_layout(const std::string& path) {
    const H5Reader file(path);
    // spikeminer's other files, named for what they are.
    if (const auto kind = file.string_attribute("/", "spikeminer_format"); kind && *kind != "spike-trains") {
        throw Error(path + (*kind == "pipeline-results" ? ": the results of a spikeminer run, not a recording (`spikeminer info` sums it up)"
                            : *kind == "mining-results" ? ": episodes written by `spikeminer mine`, not a recording"
                                                        : ": a spikeminer file of kind " + in_quotes(*kind) + ", not a recording"));
    }
    if (file.integer_attribute("/", "spikeminer_format_version")) return SpikeFormat::Spikeminer;
    if (file.exists("/units") || file.string_attribute("/", "nwb_version")) return SpikeFormat::Nwb;
    if (file.exists("/spikes") && file.exists("/sCount")) return SpikeFormat::Waverepo;
    throw Error(path +
                ": an HDF5 file of no known layout: expected an NWB Units table (/units), a spikeminer file "
                "(root attribute spikeminer_format_version) or the waverepo layout (/spikes with /sCount); "
                "give --format to force one");
}

std::optional<SpikeFormat> detect_text_format(const std::string& path) {
    check_input_file(path);
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == 0) throw Error(path + ": the file is empty");
    silence_hdf5_errors();
    if (H5Fis_hdf5(path.c_str()) > 0) return std::nullopt;
    TextLines lines(path);
    std::string_view line;
    bool declares_neurons = false;
    while (lines.next(line)) {
        // The writer's comments: its neuron list, or its first line (a recording of no neurons).
        declares_neurons = declares_neurons || line.starts_with("# neuron: ") || line.starts_with(kWriterLine);
        if (line.empty() || line.front() == '#' || line.front() == '%') continue;
        if (line.find('\0') != std::string_view::npos) {
            throw Error(path + ": binary data of no known format (not HDF5, CSV or text)");
        }
        return line.find(',') != std::string_view::npos ? SpikeFormat::Csv : SpikeFormat::Text;
    }
    // Only comments: a spikeminer text file of no spikes reads either way.
    if (declares_neurons) return SpikeFormat::Text;
    throw Error(path + ": holds no spikes (only comments or blank lines)");
}

}  // namespace detail

std::optional<SpikeFormat> format_from_extension(const std::string& path) {
    std::string_view name = path;
    if (name.ends_with(".gz")) name.remove_suffix(3);
    if (name.ends_with(".csv")) return SpikeFormat::Csv;
    if (name.ends_with(".txt") || name.ends_with(".tsv") || name.ends_with(".dat")) return SpikeFormat::Text;
    if (name.ends_with(".nwb")) return SpikeFormat::Nwb;
    if (name.ends_with(".h5") || name.ends_with(".hdf5")) return SpikeFormat::Spikeminer;
    return std::nullopt;
}

}  // namespace spikeminer::io
