// An embedded link A -> B with conditional probability p and delay tau. In this model the
// input replaces B's resting trial in the step at the delay: B fires there with
// probability exactly p (the resting drive is inside the sigmoid, so nothing is added on
// top), unless B fired in the step before, when the refractory period drops the spike.
// So the fraction of A spikes followed by a B spike exactly tau steps later is
// p * (1 - q), with q the fraction followed by a B spike tau - 1 steps later, measured on
// the same data. The test allows 4 binomial standard deviations.
#include "catch.hpp"
#include "simulator_test_helpers.hpp"

#include <cmath>
#include <set>

using namespace spikeminer;

namespace {

double fraction_followed(const std::vector<std::int64_t>& a, const std::set<std::int64_t>& b, std::int64_t lag) {
    double hits = 0;
    for (const std::int64_t t : a) hits += b.count(t + lag) != 0 ? 1 : 0;
    return hits / static_cast<double>(a.size());
}

}  // namespace

TEST_CASE("a link makes the target fire at the delay with its conditional probability", "[simulator][statistics]") {
    const double p = GENERATE(0.8, 0.6, 0.3);
    const std::int64_t tau = GENERATE(std::int64_t{1}, std::int64_t{3}, std::int64_t{7});
    simulator::NetworkConfig config = test::quiet_network(4, 300.0, 23);
    config.links.push_back(simulator::Link{0, 1, p, simulator::DelayRange{tau, tau}});
    const auto sim = simulator::simulate(config);
    const auto a = test::steps_of(sim, 0, 1000);
    const auto b_steps = test::steps_of(sim, 1, 1000);
    const std::set<std::int64_t> b(b_steps.begin(), b_steps.end());
    const double f = fraction_followed(a, b, tau);
    const double q = fraction_followed(a, b, tau - 1);
    const double predicted = p * (1.0 - q);
    const double sigma = std::sqrt(predicted * (1.0 - predicted) / static_cast<double>(a.size()));
    INFO("p " << p << ", tau " << tau << ": measured " << f << ", predicted " << predicted << " +- " << sigma);
    CHECK(std::fabs(f - predicted) < 4.0 * sigma);
    // Far from the delay, B behaves like a resting neuron: its firing is not locked to A.
    const double resting = test::step_probability(20.0, 1e-3);
    CHECK(fraction_followed(a, b, tau + 20) < 3.0 * resting);
}

TEST_CASE("a chain propagates: each link raises its target's rate", "[simulator][statistics]") {
    simulator::NetworkConfig config = test::quiet_network(10, 100.0, 31);
    config.chains.push_back(simulator::Chain{{0, 1, 2, 3}, {0.8, 0.8, 0.8}, {{2, 2}, {3, 3}, {4, 4}}, false});
    const auto sim = simulator::simulate(config);
    // Neuron k of the chain fires at about 20 Hz plus 0.8 times its driver's rate.
    for (NeuronId k = 1; k < 4; ++k) CHECK(sim.trains.spike_count(k) > sim.trains.spike_count(k - 1));
    CHECK(sim.trains.spike_count(4) < sim.trains.spike_count(1));  // unconnected
    REQUIRE(sim.truth.chains.size() == 1);
    CHECK(sim.truth.chains[0].delays[1] == TimeSpan{3000, 3000});  // ticks of 1 us
}
