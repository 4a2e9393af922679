// Writer for the waverepo lab layout: /spikes (seconds, unit by unit), /sCount and, when
// the neurons have them, /epos (electrode positions, 2 x units).
#include "hdf5_write.hpp"
#include "writers.hpp"

#include <cstdint>
#include <vector>

namespace spikeminer::io::detail {

void write_waverepo(const std::string& path, const std::string& name, const SpikeTrains& trains) {
    H5Writer file(path, name);
    std::vector<double> seconds;
    seconds.reserve(trains.num_spikes());
    std::vector<std::int64_t> counts;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        const auto spikes = trains.spikes_of(n);
        for (const std::uint32_t i : spikes) seconds.push_back(trains.time_base().to_seconds(trains.times()[i]));
        counts.push_back(static_cast<std::int64_t>(spikes.size()));
    }
    file.write("/spikes", std::span<const double>(seconds));
    file.write("/sCount", std::span<const std::int64_t>(counts));
    const std::vector<Position>& positions = trains.neuron_table().positions;
    if (!positions.empty()) {
        std::vector<double> rows(2 * positions.size());
        for (std::size_t n = 0; n < positions.size(); ++n) {
            rows[n] = positions[n].x;
            rows[positions.size() + n] = positions[n].y;
        }
        file.write_rows("/epos", rows, 2);
    }
    file.create_group("/summary");
    const double duration = trains.time_base().to_seconds(trains.span().end);
    file.write("/summary/duration", std::span<const double>(&duration, 1));
    file.close();
}

}  // namespace spikeminer::io::detail
