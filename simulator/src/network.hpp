#pragma once

#include "spikeminer/simulator/network_config.hpp"

#include <cstdint>
#include <vector>

namespace spikeminer::simulator::detail {

/// One outgoing connection with its input weight.
struct OutLink {
    NeuronId to;
    double weight;
    DelayRange delay;
};

/// The connections of a configuration (explicit links, chains, background) grouped by
/// source neuron, with each neuron's resting rate.
struct Network {
    std::vector<std::size_t> offsets;  ///< neurons + 1 offsets into `links`
    std::vector<OutLink> links;
    std::vector<double> rest_hz;

    [[nodiscard]] std::size_t begin(NeuronId n) const { return offsets[n]; }
    [[nodiscard]] std::size_t end(NeuronId n) const { return offsets[n + 1]; }
};

/// Builds the network; background links come from their own random stream of the seed.
Network build_network(const NetworkConfig& config);

}  // namespace spikeminer::simulator::detail
