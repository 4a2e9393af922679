#include "spikeminer/app/io/simulation_io.hpp"

#include "ground_truth_h5.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/write_spikes.hpp"
#include "writers.hpp"

namespace spikeminer::io {

bool write_simulation(const std::string& path, const simulator::Simulation& simulation, SpikeFormat format) {
    if (format != SpikeFormat::Spikeminer) {
        write_spikes(path, simulation.trains, format);
        return false;
    }
    AtomicOutput output(path);
    detail::write_spikeminer_h5(output.temp_path(), path, simulation.trains, &simulation.truth);
    output.commit();
    return true;
}

std::optional<simulator::GroundTruth> read_ground_truth(const std::string& path) { return read_recording(path).truth; }

}  // namespace spikeminer::io
