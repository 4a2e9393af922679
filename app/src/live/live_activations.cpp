// See live_activations.hpp.
#include "live_activations.hpp"

#include <algorithm>

namespace spikeminer::live {

void LiveActivations::watch(const std::vector<std::pair<std::uint32_t, std::vector<NeuronId>>>& assemblies, Tick within) {
    within_ = within;
    assemblies_.clear();
    of_neuron_.clear();
    for (const auto& [id, members] : assemblies) {
        const auto index = static_cast<std::uint32_t>(assemblies_.size());
        assemblies_.push_back({id, members.size(), {}});
        for (const NeuronId n : members) {
            if (of_neuron_.size() <= n) of_neuron_.resize(n + 1);
            of_neuron_[n].push_back(index);
        }
    }
}

void LiveActivations::feed(std::span<const Spike> spikes, std::vector<LiveActivation>& out) {
    for (const Spike& spike : spikes) {
        if (spike.neuron >= of_neuron_.size()) continue;
        for (const std::uint32_t index : of_neuron_[spike.neuron]) {
            Watched& a = assemblies_[index];
            // The member spikes within `within` before this one, this one included.
            std::erase_if(a.recent, [&](const Spike& s) { return s.time < spike.time - within_; });
            a.recent.push_back(spike);
            std::vector<NeuronId> firing;
            for (const Spike& s : a.recent) firing.push_back(s.neuron);
            std::sort(firing.begin(), firing.end());
            firing.erase(std::unique(firing.begin(), firing.end()), firing.end());
            if (2 * firing.size() <= a.members) continue;
            Tick first = spike.time;
            for (const Spike& s : a.recent) first = std::min(first, s.time);
            out.push_back({a.id, first, spike.time, static_cast<std::uint32_t>(firing.size())});
            a.recent.clear();
        }
    }
}

}  // namespace spikeminer::live
