#pragma once
// Activations of the assemblies known so far, told the moment they happen: as soon as
// more than half of an assembly's members have fired within the synchrony lag of each
// other, without waiting for the window to be decided (for a closed loop). The next
// activation of that assembly starts after this one's spikes, as in the finished
// recording's activation times (assembly_activity.hpp).

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace spikeminer::live {

struct LiveActivation {
    std::uint32_t assembly = 0;  ///< the id it has in the latest assemblies
    Tick time = 0;               ///< its first spike
    Tick completed = 0;          ///< the spike that made more than half of the members fire
    std::uint32_t firing = 0;    ///< members that fired
};

class LiveActivations {
public:
    /// The assemblies to watch: ids and members (provisional unit ids, sorted); `within`:
    /// the synchrony lag. Replaces the ones watched before.
    void watch(const std::vector<std::pair<std::uint32_t, std::vector<NeuronId>>>& assemblies, Tick within);
    /// The spikes that came, in time order; appends the activations they complete.
    void feed(std::span<const Spike> spikes, std::vector<LiveActivation>& out);
    [[nodiscard]] std::size_t watched() const { return assemblies_.size(); }

private:
    struct Watched {
        std::uint32_t id = 0;
        std::size_t members = 0;
        std::vector<Spike> recent;  // member spikes since the last activation, within `within` of the latest
    };
    std::vector<Watched> assemblies_;
    std::vector<std::vector<std::uint32_t>> of_neuron_;  // per unit: the watched assemblies it is a member of
    Tick within_ = 0;
};

}  // namespace spikeminer::live
