// Statistics of unconnected neurons. With a 1 ms refractory period a spike in the step
// right after another is dropped, so inter-spike intervals (in steps) follow a geometric
// law shifted by one: P(ISI = k) = (1 - p)^(k - 2) p for k >= 2, with p = 1 - exp(-rate dt),
// and the firing probability per step is p / (1 + p). The seeds are fixed, so each check
// is deterministic; the tolerances are wide enough (4 sigma, or a chi-square quantile at
// 1e-4) that a correct simulator passes for essentially any seed, and tight enough that a
// 5% error in the rate or a missing refractory shift fails.
#include "catch.hpp"
#include "simulator_test_helpers.hpp"

#include <cmath>

using namespace spikeminer;

TEST_CASE("resting neurons fire at the rate the model predicts", "[simulator][statistics]") {
    const simulator::NetworkConfig config = test::quiet_network(50, 200.0, 17);
    const auto sim = simulator::simulate(config);
    const double p = test::step_probability(config.rest_rate_hz, config.step_s);
    const double steps = config.duration_s / config.step_s;
    const double per_step = p / (1.0 + p);
    for (NeuronId n = 0; n < config.neurons; ++n) {
        const double expected = steps * per_step;
        const double sigma = std::sqrt(expected * (1.0 - per_step));  // a renewal count is no more variable than this
        CHECK(std::fabs(static_cast<double>(sim.trains.spike_count(n)) - expected) < 4.0 * sigma);
    }
    const double total_expected = steps * per_step * static_cast<double>(config.neurons);
    CHECK(std::fabs(static_cast<double>(sim.trains.num_spikes()) - total_expected) < 4.0 * std::sqrt(total_expected));
}

TEST_CASE("inter-spike intervals follow the refractory-shifted geometric law", "[simulator][statistics]") {
    const simulator::NetworkConfig config = test::quiet_network(20, 300.0, 5);
    const auto sim = simulator::simulate(config);
    const double p = test::step_probability(config.rest_rate_hz, config.step_s);
    // Bins k = 2 .. 149 and a tail bin k >= 150 (expected counts stay above 5).
    constexpr int first = 2;
    constexpr int tail = 150;
    std::vector<double> observed(tail - first + 1, 0.0);
    double intervals = 0;
    bool below_refractory = false;
    for (NeuronId n = 0; n < config.neurons; ++n) {
        const auto steps = test::steps_of(sim, n, 1000);
        for (std::size_t i = 1; i < steps.size(); ++i) {
            const std::int64_t k = steps[i] - steps[i - 1];
            below_refractory = below_refractory || k < first;
            observed[static_cast<std::size_t>(std::min<std::int64_t>(k, tail) - first)] += 1;
            intervals += 1;
        }
    }
    CHECK_FALSE(below_refractory);
    double chi2 = 0;
    for (int k = first; k <= tail; ++k) {
        const double probability = k < tail ? std::pow(1 - p, k - first) * p : std::pow(1 - p, tail - first);
        const double expected = intervals * probability;
        const double o = observed[static_cast<std::size_t>(k - first)];
        chi2 += (o - expected) * (o - expected) / expected;
    }
    // 148 degrees of freedom: the 1 - 1e-4 quantile of chi-square(148) is about 215.
    INFO("chi2 = " << chi2 << " over " << intervals << " intervals");
    CHECK(chi2 < 215.0);
}
