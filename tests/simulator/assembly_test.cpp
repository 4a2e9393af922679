// Assemblies: activations form a Bernoulli process of rate r per second (probability
// 1 - exp(-r dt) per step), and at each activation every member fires once within the
// jitter, unless its own previous spike was in the step before (refractory drop).
#include "catch.hpp"
#include "simulator_test_helpers.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>

using namespace spikeminer;

TEST_CASE("assemblies activate at their rate and their members co-fire within the jitter",
          "[simulator][statistics]") {
    simulator::NetworkConfig config = test::quiet_network(30, 400.0, 41);
    config.assemblies.push_back(simulator::Assembly{{2, 5, 7, 11}, 1.0, 2, 1.0, {}});
    config.assemblies.push_back(simulator::Assembly{{20, 21, 22}, 0.5, 5, 1.0, {}});
    const auto sim = simulator::simulate(config);
    REQUIRE(sim.truth.assemblies.size() == 2);
    for (std::size_t a = 0; a < 2; ++a) {
        const auto& truth = sim.truth.assemblies[a];
        const auto& assembly = config.assemblies[a];
        const double expected = config.duration_s / config.step_s *
                                test::step_probability(assembly.activation_rate_hz, config.step_s);
        const auto activations = static_cast<double>(truth.activation_times.size());
        INFO("assembly " << a << ": " << activations << " activations, expected " << expected);
        CHECK(std::fabs(activations - expected) < 4.0 * std::sqrt(expected));
        CHECK(truth.jitter == assembly.jitter_steps * 1000);
        double present = 0;
        double looked = 0;
        for (const NeuronId member : truth.members) {
            const auto steps = test::steps_of(sim, member, 1000);
            for (const Tick t : truth.activation_times) {
                const std::int64_t start = t / 1000;
                const auto it = std::lower_bound(steps.begin(), steps.end(), start);
                present += it != steps.end() && *it <= start + assembly.jitter_steps ? 1 : 0;
                looked += 1;
            }
        }
        // Misses come only from refractory drops (a resting spike in the step before),
        // which happen a few percent of the time at 20 Hz.
        CHECK(present / looked > 0.95);
    }
}

TEST_CASE("partial participation lowers co-firing to the participation probability", "[simulator][statistics]") {
    simulator::NetworkConfig config = test::quiet_network(10, 400.0, 43);
    config.assemblies.push_back(simulator::Assembly{{1, 2, 3, 4, 5, 6}, 2.0, 0, 0.5, {}});
    const auto sim = simulator::simulate(config);
    const auto& truth = sim.truth.assemblies.front();
    double present = 0;
    double looked = 0;
    for (const NeuronId member : truth.members) {
        const auto steps = test::steps_of(sim, member, 1000);
        for (const Tick t : truth.activation_times) {
            present += std::binary_search(steps.begin(), steps.end(), t / 1000) ? 1 : 0;
            looked += 1;
        }
    }
    // 0.5 from participation plus at most the resting chance of a spike at that very step.
    const double fraction = present / looked;
    CHECK(fraction > 0.45);
    CHECK(fraction < 0.55);
}

TEST_CASE("an assembly activates only within its active periods, at its rate there", "[simulator][statistics]") {
    simulator::NetworkConfig config = test::quiet_network(10, 400.0, 47);
    config.assemblies.push_back(simulator::Assembly{{1, 2, 3}, 2.0, 1, 1.0, {{50.0, 150.0}, {300.0, 350.0}}});
    const auto sim = simulator::simulate(config);
    const auto& truth = sim.truth.assemblies.front();
    REQUIRE(truth.active == std::vector<TimeSpan>{{50'000'000, 150'000'000}, {300'000'000, 350'000'000}});
    for (const Tick t : truth.activation_times) {
        INFO("activation at " << t);
        CHECK(((t >= 50'000'000 && t < 150'000'000) || (t >= 300'000'000 && t < 350'000'000)));
    }
    const double expected = 150.0 / config.step_s * test::step_probability(2.0, config.step_s);
    const auto activations = static_cast<double>(truth.activation_times.size());
    CHECK(std::fabs(activations - expected) < 4.0 * std::sqrt(expected));
}

TEST_CASE("active periods outside the run or overlapping are refused", "[simulator][config]") {
    simulator::NetworkConfig config = test::quiet_network(10, 100.0, 47);
    config.assemblies.push_back(simulator::Assembly{{1, 2}, 1.0, 1, 1.0, {{50.0, 150.0}}});
    CHECK_THROWS_AS(simulator::validate(config), UsageError);
    config.assemblies.back().active = {{10.0, 50.0}, {40.0, 60.0}};
    CHECK_THROWS_AS(simulator::validate(config), UsageError);
    config.assemblies.back().active = {{30.0, 20.0}};
    CHECK_THROWS_AS(simulator::validate(config), UsageError);
    config.assemblies.back().active = {{10.0, 20.0}, {20.0, 60.0}};
    CHECK_NOTHROW(simulator::validate(config));
}
