#pragma once

#include "spikeminer/simulator/simulate.hpp"

#include <cmath>
#include <vector>

namespace spikeminer::test {

/// Spike steps of neuron n (times divided by the step's ticks).
inline std::vector<std::int64_t> steps_of(const simulator::Simulation& sim, NeuronId n, std::int64_t step_ticks) {
    std::vector<std::int64_t> steps;
    for (const std::uint32_t i : sim.trains.spikes_of(n)) steps.push_back(sim.trains.times()[i] / step_ticks);
    return steps;
}

/// A network of `neurons` unconnected neurons at 20 Hz with a 1 ms step.
inline simulator::NetworkConfig quiet_network(std::size_t neurons, double duration_s, std::uint64_t seed) {
    simulator::NetworkConfig config;
    config.neurons = neurons;
    config.duration_s = duration_s;
    config.seed = seed;
    return config;
}

/// Per-step firing probability of a resting neuron at `rate_hz` with step `step_s`.
inline double step_probability(double rate_hz, double step_s) { return -std::expm1(-rate_hz * step_s); }

}  // namespace spikeminer::test
