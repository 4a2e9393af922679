#include "catch.hpp"
#include "simulator_test_helpers.hpp"

#include "spikeminer/core/error.hpp"

#include <cmath>

using namespace spikeminer;

TEST_CASE("the weight of a link follows the paper's formula", "[simulator]") {
    const simulator::NetworkConfig config;
    // By hand: lambda_max = -ln(0.01)/1ms = 4605.17 Hz, lambda = -ln(0.2)/1ms = 1609.44 Hz,
    // beta = 0.349485, beta/(1-beta) * (4605.17/20 - 1) = 123.17, ln -> 4.8135.
    CHECK(std::fabs(simulator::link_weight(0.8, 20.0, config) - 4.8135) < 1e-3);
    // A link at the resting step probability carries no input.
    CHECK(std::fabs(simulator::link_weight(test::step_probability(20.0, 1e-3), 20.0, config)) < 1e-9);
    CHECK(simulator::link_weight(0.005, 20.0, config) < 0.0);  // below rest: inhibitory
}

TEST_CASE("the same configuration gives the same spikes; another seed does not", "[simulator]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.duration_s = 5.0;
    const auto first = simulator::simulate(config);
    const auto again = simulator::simulate(config);
    CHECK(std::equal(first.trains.times().begin(), first.trains.times().end(), again.trains.times().begin(),
                     again.trains.times().end()));
    CHECK(std::equal(first.trains.neurons().begin(), first.trains.neurons().end(), again.trains.neurons().begin(),
                     again.trains.neurons().end()));
    config.seed = 2;
    const auto other = simulator::simulate(config);
    CHECK_FALSE(std::equal(first.trains.times().begin(), first.trains.times().end(), other.trains.times().begin(),
                           other.trains.times().end()));
}

TEST_CASE("every scenario is valid and simulates", "[simulator]") {
    const std::string name = GENERATE("paper", "assemblies", "large");
    simulator::NetworkConfig config = simulator::scenario(name);
    config.duration_s = 2.0;
    const auto sim = simulator::simulate(config);
    CHECK(sim.trains.num_neurons() == config.neurons);
    CHECK(sim.trains.num_spikes() > 0);
    CHECK(sim.trains.span() == TimeSpan{0, 2'000'000});
    CHECK(sim.truth.chains.size() == config.chains.size());
    CHECK_THROWS_AS(simulator::scenario("bogus"), UsageError);
}

TEST_CASE("bad configurations are refused with the parameter named", "[simulator]") {
    simulator::NetworkConfig config = test::quiet_network(8, 10.0, 1);
    SECTION("negative rate") {
        config.rest_rate_hz = -1;
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("rest rate"));
    }
    SECTION("per-neuron rate list of the wrong size") {
        config.rest_rates = {20.0, 20.0};
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("rest rates"));
    }
    SECTION("probability of one") {
        config.links.push_back(simulator::Link{0, 1, 1.0, {1, 1}});
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("link 0"));
    }
    SECTION("delay longer than the run") {
        config.chains.push_back(simulator::Chain{{0, 1}, {0.5}, {{20000, 20000}}, false});
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("longer than the run"));
    }
    SECTION("neuron out of range") {
        config.assemblies.push_back(simulator::Assembly{{1, 8}, 1.0, 1, 1.0, {}});
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("neuron 8 is out of range"));
    }
    SECTION("chain without one strength per link") {
        config.chains.push_back(simulator::Chain{{0, 1, 2}, {0.5}, {{1, 1}, {1, 1}}, false});
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("one strength and one delay per link"));
    }
    SECTION("step that is no whole number of ticks") {
        config.step_s = 1.5e-7;
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("whole number of ticks"));
    }
    SECTION("sine depth of one") {
        config.modulation.kind = simulator::Modulation::Kind::Sine;
        config.modulation.depth = 1.0;
        CHECK_THROWS_WITH(simulator::validate(config), test::contains("depth"));
    }
    CHECK_THROWS_AS(simulator::simulate(config), UsageError);
}

TEST_CASE("a duration whose spikes no recording could hold is refused before any work", "[simulator][bad-input]") {
    // It used to run until the memory ran out.
    simulator::NetworkConfig config = test::quiet_network(8, 1e12, 1);
    CHECK_THROWS_AS(simulator::validate(config), UsageError);
    CHECK_THROWS_WITH(simulator::validate(config), test::contains("duration") && test::contains("more than the 4,294,967,295"));
    config.duration_s = 2.5e7;  // 8 neurons at 20 Hz: 4e9 spikes, just inside
    CHECK_NOTHROW(simulator::validate(config));
}
