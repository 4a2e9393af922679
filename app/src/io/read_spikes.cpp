#include "spikeminer/app/io/read_spikes.hpp"

#include "hdf5_isolated.hpp"
#include "recording.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <filesystem>

namespace spikeminer::io {

ReadOptions read_options(const std::string& format, const std::string& tick, const std::string& duplicates, Progress* progress,
                         const std::string& units) {
    ReadOptions options;
    if (!format.empty()) options.format = parse_spike_format(format);
    if (!tick.empty()) options.time_base = parse_time_base(tick);
    if (duplicates != "keep" && duplicates != "merge") throw UsageError("duplicates: choose keep or merge, not '" + duplicates + "'");
    options.duplicates = duplicates == "merge" ? DuplicatePolicy::Merge : DuplicatePolicy::Keep;
    if (units != "good" && units != "all") throw UsageError("units: choose good or all, not " + in_quotes(units));
    options.all_units = units == "all";
    options.progress = progress;
    return options;
}

namespace {

// The spike trains, and with `with_truth` the ground truth of a spikeminer HDF5 file. An
// HDF5 file is read in one child process (hdf5_isolated.hpp), without progress reports, its
// layout looked up there when no format is given.
SpikeRecording read_any(const std::string& path, const ReadOptions& options, bool with_truth) {
    const std::optional<SpikeFormat> known = options.format            ? options.format
                                             : detail::is_phy_folder(path) ? SpikeFormat::Phy
                                                                           : detail::detect_text_format(path);
    const TimeBase seconds_tick = options.time_base.value_or(TimeBase{});
    detail::Recording recording;
    if (known == SpikeFormat::Phy) {
        recording = detail::read_phy(path, options.all_units, options.time_base);
    } else if (known == SpikeFormat::Csv || known == SpikeFormat::Text) {
        recording = detail::read_delimited_text(path, *known == SpikeFormat::Csv ? ',' : ' ', options.time_base, options.progress);
        recording.format = *known;
    } else {
        recording = detail::read_isolated(path, [&] {
            const SpikeFormat layout = known ? *known : detail::hdf5_layout(path);
            detail::Recording r = layout == SpikeFormat::Nwb        ? detail::read_nwb(path, seconds_tick, nullptr)
                                  : layout == SpikeFormat::Waverepo ? detail::read_waverepo(path, seconds_tick, nullptr)
                                                                    : detail::read_spikeminer_h5(path, nullptr, with_truth);
            r.format = layout;
            return r;
        }, options.progress);
    }
    if (options.progress != nullptr) options.progress->begin("sorting spikes", 0);
    SpikeTrains trains;
    try {  // the checks every source shares (neuron indexes, the range of times), named by file
        trains = SpikeTrains::from_columns(std::move(recording.spikes), std::move(recording.neurons), recording.time_base,
                                          options.duplicates);
        if (recording.span) {
            // A stated span never hides spikes: it grows to cover every spike.
            TimeSpan span = *recording.span;
            if (trains.num_spikes() > 0) {
                span.start = std::min(span.start, trains.span().start);
                span.end = std::max(span.end, trains.span().end);
            }
            trains.set_span(span);
        }
    } catch (const Error& error) {
        throw Error(path + ": " + error.what());
    }
    if (recording.neuron_out_of_order) trains.set_sorted_on_load(*recording.neuron_out_of_order);
    for (const auto& [key, value] : recording.metadata) trains.set_metadata(key, value);
    trains.set_metadata("source.file", std::filesystem::path(path).filename().string());
    trains.set_metadata("source.format", format_name(recording.format));
    if (options.progress != nullptr) options.progress->finish();
    return {std::move(trains), std::move(recording.truth)};
}

}  // namespace

SpikeTrains read_spikes(const std::string& path, const ReadOptions& options) { return read_any(path, options, false).trains; }

SpikeRecording read_recording(const std::string& path, const ReadOptions& options) { return read_any(path, options, true); }

}  // namespace spikeminer::io
