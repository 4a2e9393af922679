#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::simulator {

/// A delay in whole simulation steps, drawn uniformly from [min, max] for each spike.
struct DelayRange {
    std::int64_t min = 1;
    std::int64_t max = 1;
    bool operator==(const DelayRange&) const = default;
};

/// A directed connection given as the probability that the target fires in the step at
/// the delay, given one input spike (the TDMiner simulator's "conditional probability").
struct Link {
    NeuronId from = 0;
    NeuronId to = 0;
    double probability = 0.5;
    DelayRange delay;
    bool operator==(const Link&) const = default;
};

/// An embedded serial episode: neurons[0] -> neurons[1] -> ..., link k with strength
/// strengths[k] and delay delays[k]; optionally the last neuron drives the first.
struct Chain {
    std::vector<NeuronId> neurons;
    std::vector<double> strengths;   ///< one per link (neurons.size() - 1, +1 with loopback)
    std::vector<DelayRange> delays;  ///< one per link
    bool loopback = false;
    bool operator==(const Chain&) const = default;
};

/// A stretch of the run, in seconds: [start_s, end_s).
struct ActivePeriod {
    double start_s = 0;
    double end_s = 0;
    bool operator==(const ActivePeriod&) const = default;
};

/// A group of neurons that fire together: at each activation (a Poisson process of
/// `activation_rate_hz`, within the active periods) each member fires once,
/// `jitter_steps` or fewer steps later (uniform), with probability `participation`.
struct Assembly {
    std::vector<NeuronId> members;
    double activation_rate_hz = 0.5;
    std::int64_t jitter_steps = 2;
    double participation = 1.0;
    std::vector<ActivePeriod> active;  ///< when the assembly activates (sorted, apart); empty: the whole run
    bool operator==(const Assembly&) const = default;
};

/// Slow change of every neuron's resting rate over time.
struct Modulation {
    enum class Kind { None, Sine, UpDown };
    Kind kind = Kind::None;
    double period_s = 10.0;   ///< Sine: period; UpDown: one up plus one down state
    double depth = 0.5;       ///< Sine: rate x (1 + depth sin(2 pi t / period)), 0 <= depth < 1
    double up_fraction = 0.5; ///< UpDown: share of each period in the up state
    double up_factor = 2.0;   ///< UpDown: rate multiplier in the up state
    double down_factor = 0.5; ///< UpDown: rate multiplier in the down state
    bool operator==(const Modulation&) const = default;
};

/// The network Poisson model of Patnaik, Sastry and Unnikrishnan (the TDMiner simulator).
/// In each step every neuron j fires with probability 1 - exp(-lambda_j dt), where
/// lambda_j = lambda_max / (1 + exp(-slope I_j + d_j)), d_j = ln(lambda_max/rest_j - 1)
/// (so no input gives exactly the resting rate) and I_j(t) = sum_i w_ij n_i(t - tau_ij).
struct NetworkConfig {
    std::size_t neurons = 64;
    double step_s = 1e-3;            ///< simulation step dt
    double duration_s = 20.0;
    double rest_rate_hz = 20.0;      ///< resting rate of every neuron ...
    std::vector<double> rest_rates;  ///< ... unless given per neuron here (size `neurons`)
    double slope = 1.0;              ///< s in the sigmoid
    double max_step_probability = 0.99;  ///< lambda_max = -ln(1 - this) / dt
    double refractory_s = 1e-3;      ///< a spike this close or closer to the previous one is dropped
    double background_density = 0.0; ///< probability of a random link for each ordered pair
    DelayRange background_delay{1, 20};
    std::vector<Link> links;         ///< explicit links (besides chains and background)
    std::vector<Chain> chains;
    std::vector<Assembly> assemblies;
    Modulation modulation;
    std::uint64_t seed = 1;
    std::int64_t ticks_per_second = 1'000'000;  ///< tick of the output (the step must be whole ticks)
};

/// Preset scenarios: "paper" (64 neurons at 20 Hz, four embedded 9-neuron chains),
/// "assemblies" (100 neurons at 5 Hz, six assemblies, two chains, slow up/down states),
/// "demo" (the same for 4 minutes, its assemblies active in stretches), "large" (1,000
/// neurons, sparse background, 20 chains, 20 assemblies), "dynamics" (the assemblies
/// scenario's neurons for 5 minutes, its assemblies changing at the middle: one gains a
/// member, one loses one, one splits, two merge, and one switches on and off twice: each
/// state an assembly of its own, active in its stretch), "none" (100 independent neurons at
/// 20 Hz). Throws UsageError for another name.
NetworkConfig scenario(const std::string& name);

/// Makes `config` `duration_s` long, its assemblies' active stretches scaled with it so
/// that they keep their places (a scenario's stretches then still lie within the run).
void set_duration(NetworkConfig& config, double duration_s);

/// Checks every parameter; throws UsageError naming the first that is wrong.
void validate(const NetworkConfig& config);

/// The weight w that gives a target at resting rate `rest_hz` the firing probability `p`
/// in the step of one input spike: lambda = -ln(1-p)/dt capped at 0.95 lambda_max,
/// beta = lambda/lambda_max, w = ln(beta/(1-beta) (lambda_max/rest - 1)) / slope.
double link_weight(double p, double rest_hz, const NetworkConfig& config);

}  // namespace spikeminer::simulator
