// Reader for the waverepo lab layout: /spikes (seconds, concatenated unit by unit) and
// /sCount (spikes per unit), with optional /epos (electrode positions, 2 x units, µm),
// /summary/duration and /meta strings.
#include "hdf5_read.hpp"
#include "recording.hpp"

#include "spikeminer/core/error.hpp"

#include <cmath>
#include <numeric>

namespace spikeminer::io::detail {

Recording read_waverepo(const std::string& path, const TimeBase& time_base, Progress* progress) {
    const H5Reader file(path);
    const auto counts = file.read_integers("/sCount");
    std::vector<std::int64_t> ends(counts.size());
    std::int64_t total = 0;
    for (std::size_t n = 0; n < counts.size(); ++n) {
        if (counts[n] < 0) {
            throw Error(file.where("/sCount") + " element " + std::to_string(n) + " is negative (" +
                        std::to_string(counts[n]) + ")");
        }
        if (__builtin_add_overflow(total, counts[n], &total)) {
            throw Error(file.where("/sCount") + ": the spike counts up to element " + std::to_string(n) +
                        " add up to more than 2^63 - 1: not the counts of a recording");
        }
        ends[n] = total;
    }
    Recording recording;
    recording.time_base = time_base;
    // Units are named by their 0-based position in the file, as in the waverepo tools.
    std::vector<NeuronId> ids(counts.size());
    std::iota(ids.begin(), ids.end(), NeuronId{0});
    for (std::size_t n = 0; n < counts.size(); ++n) recording.neurons.labels.push_back(std::to_string(n));
    spikes_from_ragged(recording, file.read_numbers("/spikes"), ends, ids, path, "/spikes", "/sCount", progress);

    if (file.exists("/epos")) {
        std::size_t units = 0;
        const std::vector<double> xy = file.read_rows("/epos", 2, units);
        if (units != counts.size()) {
            throw Error(file.where("/epos") + " holds " + std::to_string(units) + " positions, but /sCount has " +
                        std::to_string(counts.size()) + " units");
        }
        for (std::size_t n = 0; n < units; ++n) {
            if (!std::isfinite(xy[n]) || !std::isfinite(xy[units + n])) {
                throw Error(file.where("/epos") + " position of unit " + std::to_string(n) + " is not a finite number");
            }
            recording.neurons.positions.push_back({xy[n], xy[units + n]});
        }
    }
    if (file.exists("/summary/duration")) {
        const auto duration = file.read_numbers("/summary/duration");
        if (duration.size() == 1 && duration[0] > 0) {
            recording.span = TimeSpan{0, to_tick(time_base, duration[0], [&] { return file.where("/summary/duration"); })};
        }
    }
    if (const auto array = file.first_value_as_text("/array")) recording.metadata["waverepo.array"] = *array;
    for (const char* field : {"age", "cond", "genotype", "key", "species"}) {
        if (const auto value = file.first_value_as_text(std::string("/meta/") + field)) {
            recording.metadata[std::string("waverepo.") + field] = *value;
        }
    }
    return recording;
}

}  // namespace spikeminer::io::detail
