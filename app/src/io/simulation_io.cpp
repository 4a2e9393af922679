#include "spikeminer/app/io/simulation_io.hpp"

#include "ground_truth_h5.hpp"
#include "hdf5_isolated.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
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

std::optional<simulator::GroundTruth> read_ground_truth(const std::string& path) {
    if (detect_spike_format(path) != SpikeFormat::Spikeminer) return std::nullopt;
    // Read in a child process (hdf5_isolated.hpp), handed back field by field.
    std::optional<simulator::GroundTruth> truth;
    detail::run_isolated(
        path,
        [&](detail::Writer& out) {
            const detail::H5Reader file(path);
            out.value(file.exists("/ground_truth"));
            if (!file.exists("/ground_truth")) return;
            const simulator::GroundTruth t = detail::read_ground_truth_group(file);
            out.value(static_cast<std::uint64_t>(t.chains.size()));
            for (const auto& chain : t.chains) {
                out.values(chain.neurons);
                out.values(chain.strengths);
                out.values(chain.delays);
                out.value(chain.loopback);
            }
            out.value(static_cast<std::uint64_t>(t.assemblies.size()));
            for (const auto& assembly : t.assemblies) {
                out.values(assembly.members);
                out.value(assembly.activation_rate_hz);
                out.value(assembly.jitter);
                out.values(assembly.activation_times);
                out.values(assembly.active);
            }
            out.text(t.config_json);
        },
        [&](detail::Reader& in) {
            if (!in.value<bool>()) return;
            simulator::GroundTruth& t = truth.emplace();
            t.chains.resize(in.count(sizeof(std::uint64_t)));
            for (auto& chain : t.chains) {
                chain.neurons = in.values<NeuronId>();
                chain.strengths = in.values<double>();
                chain.delays = in.values<TimeSpan>();
                chain.loopback = in.value<bool>();
            }
            t.assemblies.resize(in.count(sizeof(std::uint64_t)));
            for (auto& assembly : t.assemblies) {
                assembly.members = in.values<NeuronId>();
                assembly.activation_rate_hz = in.value<double>();
                assembly.jitter = in.value<Tick>();
                assembly.activation_times = in.values<Tick>();
                assembly.active = in.values<TimeSpan>();
            }
            t.config_json = in.text();
        },
        nullptr);
    return truth;
}

}  // namespace spikeminer::io
