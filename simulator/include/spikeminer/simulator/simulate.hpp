#pragma once

#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/simulator/network_config.hpp"

#include <string>
#include <vector>

namespace spikeminer::simulator {

/// What was put into a simulation, in ticks: the answer mining and clique finding should recover.
struct GroundTruth {
    struct ChainTruth {
        std::vector<NeuronId> neurons;
        std::vector<double> strengths;
        std::vector<TimeSpan> delays;  ///< per link: [min, max] delay in ticks (end inclusive)
        bool loopback = false;
        bool operator==(const ChainTruth&) const = default;
    };
    struct AssemblyTruth {
        std::vector<NeuronId> members;
        double activation_rate_hz = 0;
        Tick jitter = 0;                     ///< ticks
        std::vector<Tick> activation_times;  ///< ticks
        std::vector<TimeSpan> active;        ///< when it could activate (ticks); empty: the whole recording
        bool operator==(const AssemblyTruth&) const = default;
    };
    std::vector<ChainTruth> chains;
    std::vector<AssemblyTruth> assemblies;
    std::string config_json;  ///< the full configuration, for provenance
    bool operator==(const GroundTruth&) const = default;
};

/// Spike trains and what was embedded in them.
struct Simulation {
    SpikeTrains trains;
    GroundTruth truth;
};

/// Runs the network model. The same config (seed included) gives the same spikes on any
/// machine. The cost follows the spikes: neurons without input are advanced by drawing
/// the step of their next spike directly. Throws UsageError for a bad config.
Simulation simulate(const NetworkConfig& config, Progress* progress = nullptr);

/// The configuration as JSON (stored with the spikes).
std::string to_json(const NetworkConfig& config);

}  // namespace spikeminer::simulator
