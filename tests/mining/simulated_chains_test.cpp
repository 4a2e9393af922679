// On simulated data (the papers' network: four 9-neuron chains of strengths 0.8, 0.7,
// 0.6, 0.6 in 64 neurons; resting rate 5 Hz so that a count threshold can separate the
// chains from chance), level-wise mining finds each whole embedded chain at its delays.
// Expected counts in 300 s: a chain's first link fires ~5 Hz x p x 300 s >= 900 times; a
// random pair of neurons (at most ~25 Hz each, down a 0.8 chain) falls in a 1 ms window
// ~190 times, so a level-2 threshold of 450 keeps the links only; the whole 0.6 chain
// occurs ~5 x 0.6^8 x 300 = 25 times and a random triple ~5 times, so 12 from level 3 on
// keeps the chains. (Checked by hand: 213, 87, 30 and 21 occurrences with seed 11.)
#include "catch.hpp"

#include "spikeminer/mining/mine.hpp"
#include "spikeminer/simulator/simulate.hpp"

#include <algorithm>

using namespace spikeminer;

TEST_CASE("mining finds every embedded 9-neuron chain at its delays", "[mining][simulated]") {
    simulator::NetworkConfig config = simulator::scenario("paper");
    config.rest_rate_hz = 5.0;
    config.duration_s = 300.0;
    config.seed = 11;
    const simulator::Simulation sim = simulator::simulate(config);
    const Tick ms = sim.trains.time_base().ticks_per_second / 1000;
    for (const auto& chain : sim.truth.chains) {
        CAPTURE(chain.neurons.front(), chain.strengths.front());
        mining::MiningOptions options;
        for (Tick d = 1; d <= 6; ++d) options.intervals.push_back(mining::Interval{d * ms, (d + 1) * ms});
        options.min_counts = {450, 450, 12};  // levels 1 and 2, then every level after
        options.max_level = 9;
        options.neurons = chain.neurons;
        options.count.backend = Backend::Cpu;
        const mining::MiningResult result = mining::mine(sim.trains, options);
        mining::Episode expected{chain.neurons, {}};
        for (const TimeSpan& delay : chain.delays) expected.gaps.push_back(mining::Interval{delay.start - ms, delay.end});
        const auto found = std::find_if(result.episodes.begin(), result.episodes.end(),
                                        [&](const mining::FrequentEpisode& f) { return f.episode == expected; });
        REQUIRE(found != result.episodes.end());
        CHECK(found->count >= 12);
        // Nothing longer than the chain, and no other 9-node episode.
        CHECK(std::count_if(result.episodes.begin(), result.episodes.end(),
                            [](const mining::FrequentEpisode& f) { return f.episode.size() == 9; }) == 1);
    }
}
