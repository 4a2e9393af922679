// Resting-rate modulation: the rate in each phase is the resting rate times the phase's
// factor (within sampling error; the runs are seeded, so deterministic). The up factor
// of 1.0 case once kept the down state at the full rate.
#include "catch.hpp"
#include "simulator_test_helpers.hpp"

#include <algorithm>

using namespace spikeminer;

namespace {

// Spikes of all neurons in [from_s, to_s).
double spikes_between(const SpikeTrains& trains, double from_s, double to_s) {
    const auto from = static_cast<Tick>(from_s * 1e6);
    const auto to = static_cast<Tick>(to_s * 1e6);
    return static_cast<double>(
        std::count_if(trains.times().begin(), trains.times().end(), [&](Tick t) { return t >= from && t < to; }));
}

}  // namespace

TEST_CASE("up/down states lower the rate in the down state, whatever the up factor", "[simulator][statistics]") {
    // Up for the first half of each 10 s period, down for the second half.
    const double up_factor = GENERATE(2.0, 1.5, 1.0);
    CAPTURE(up_factor);
    simulator::NetworkConfig config;
    config.neurons = 20;
    config.duration_s = 20.0;
    config.rest_rate_hz = 10.0;
    config.seed = 4;
    config.modulation.kind = simulator::Modulation::Kind::UpDown;
    config.modulation.period_s = 10.0;
    config.modulation.up_fraction = 0.5;
    config.modulation.up_factor = up_factor;
    config.modulation.down_factor = 0.2;
    const simulator::Simulation sim = simulator::simulate(config);
    const double up = spikes_between(sim.trains, 0.0, 5.0) + spikes_between(sim.trains, 10.0, 15.0);
    const double down = spikes_between(sim.trains, 5.0, 10.0) + spikes_between(sim.trains, 15.0, 20.0);
    INFO("up " << up << ", down " << down);
    // Expected: up = 20 x 10 s x 10 Hz x up_factor, down = 20 x 10 s x 10 Hz x 0.2 = 400.
    CHECK(up > 0.85 * 2000.0 * up_factor);
    CHECK(up < 1.15 * 2000.0 * up_factor);
    CHECK(down > 0.8 * 400.0);
    CHECK(down < 1.2 * 400.0);
}

TEST_CASE("sine modulation follows the sine", "[simulator][statistics]") {
    simulator::NetworkConfig config;
    config.neurons = 20;
    config.duration_s = 20.0;
    config.rest_rate_hz = 10.0;
    config.seed = 8;
    config.modulation.kind = simulator::Modulation::Kind::Sine;
    config.modulation.period_s = 10.0;
    config.modulation.depth = 0.8;
    const simulator::Simulation sim = simulator::simulate(config);
    // The positive half-waves hold rate x (1 + 0.8 x 2/pi), the negative ones rate x (1 - 0.8 x 2/pi).
    const double high = spikes_between(sim.trains, 0.0, 5.0) + spikes_between(sim.trains, 10.0, 15.0);
    const double low = spikes_between(sim.trains, 5.0, 10.0) + spikes_between(sim.trains, 15.0, 20.0);
    INFO("high " << high << ", low " << low);
    CHECK(high > 0.9 * 2000.0 * 1.509);
    CHECK(high < 1.1 * 2000.0 * 1.509);
    CHECK(low > 0.8 * 2000.0 * 0.491);
    CHECK(low < 1.2 * 2000.0 * 0.491);
}

TEST_CASE("up and down states scale the resting rate as predicted, refractory period included", "[simulator][statistics]") {
    simulator::NetworkConfig config = test::quiet_network(30, 200.0, 9);
    config.modulation.kind = simulator::Modulation::Kind::UpDown;
    config.modulation.period_s = 4.0;
    config.modulation.up_fraction = 0.5;
    config.modulation.up_factor = 2.0;
    config.modulation.down_factor = 0.5;
    const auto sim = simulator::simulate(config);
    double up = 0;
    double down = 0;
    for (const Tick t : sim.trains.times()) {
        (std::fmod(static_cast<double>(t) * 1e-6, 4.0) < 2.0 ? up : down) += 1;
    }
    const double half_steps = config.duration_s / config.step_s / 2.0 * static_cast<double>(config.neurons);
    const double p_up = test::step_probability(40.0, config.step_s);
    const double p_down = test::step_probability(10.0, config.step_s);
    const double expected_up = half_steps * p_up / (1 + p_up);
    const double expected_down = half_steps * p_down / (1 + p_down);
    CHECK(std::fabs(up - expected_up) < 4.0 * std::sqrt(expected_up));
    CHECK(std::fabs(down - expected_down) < 4.0 * std::sqrt(expected_down));
}
