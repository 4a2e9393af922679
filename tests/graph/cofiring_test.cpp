// The co-firing graph against a count over every pair of spikes, and on spike trains with
// synchronous assemblies in independent background firing: its maximal cliques are
// exactly the assemblies.
#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/cofiring.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

using namespace spikeminer;
using graph::CofiringOptions;

namespace {

SpikeTrains trains_of(std::vector<Spike> spikes, std::size_t neurons, Tick span) {
    NeuronTable table;
    for (std::size_t n = 0; n < neurons; ++n) table.labels.push_back(std::to_string(n));
    SpikeTrains trains = SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{1000});
    trains.set_span({0, span});
    return trains;
}

// Independent Poisson background (per-tick Bernoulli) plus, for each assembly, activations
// at which every member fires within `jitter` ticks.
SpikeTrains with_assemblies(const std::vector<std::vector<NeuronId>>& assemblies, std::size_t neurons, Tick span, double rate_per_tick,
                            int activations, Tick jitter, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<Spike> spikes;
    std::bernoulli_distribution fires(rate_per_tick);
    for (Tick t = 0; t < span; ++t) {
        for (NeuronId n = 0; n < neurons; ++n) {
            if (fires(random)) spikes.push_back({t, n});
        }
    }
    for (const auto& members : assemblies) {
        for (int a = 0; a < activations; ++a) {
            const Tick at = static_cast<Tick>(random() % static_cast<std::uint64_t>(span - jitter));
            for (const NeuronId n : members) spikes.push_back({at + static_cast<Tick>(random() % static_cast<std::uint64_t>(jitter + 1)), n});
        }
    }
    return trains_of(std::move(spikes), neurons, span);
}

}  // namespace

TEST_CASE("co-firing counts equal a count over every pair of spikes", "[graph][cofiring]") {
    std::mt19937_64 random(GENERATE(1, 2, 3));
    const std::size_t neurons = 6;
    const Tick span = 400;
    std::vector<Spike> spikes;
    for (int i = 0; i < 300; ++i) spikes.push_back({static_cast<Tick>(random() % span), static_cast<NeuronId>(random() % neurons)});
    const Tick window = GENERATE(0, 2, 5);
    const Tick baseline = GENERATE(0, 10);
    // The same spikes on a grid of 7 ticks that starts 3 ticks in, and a window and baseline
    // of 7 times as many ticks (plus part of a step, which no spike pair can fill): the same
    // counts and chance.
    const Tick grid = GENERATE(1, 7);
    const Tick origin = grid / 2;
    std::vector<Spike> on_grid = spikes;
    for (Spike& s : on_grid) s.time = s.time * grid + origin;
    const SpikeTrains trains = trains_of(on_grid, neurons, span * grid + origin);
    CofiringOptions options;
    options.window = window * grid + grid / 2;
    options.baseline = baseline * grid + (baseline != 0 ? grid / 2 : 0);
    options.min_count = 3;
    options.min_ratio = 1.2;
    options.min_z = 0.5;
    // By hand: every pair of spikes of two neurons.
    std::map<std::pair<NeuronId, NeuronId>, std::pair<std::uint64_t, std::uint64_t>> tally;  // coincident, within baseline
    for (std::size_t i = 0; i < spikes.size(); ++i) {
        for (std::size_t j = i + 1; j < spikes.size(); ++j) {
            if (spikes[i].neuron == spikes[j].neuron) continue;
            const auto key = std::minmax(spikes[i].neuron, spikes[j].neuron);
            const Tick apart = std::abs(spikes[i].time - spikes[j].time);
            if (apart <= window) ++tally[key].first;
            if (apart <= baseline) ++tally[key].second;
        }
    }
    std::vector<graph::CofiringPair> expected;
    std::size_t coinciding = 0;
    for (const auto& [key, counts] : tally) {
        if (counts.first == 0) continue;
        ++coinciding;
        const double chance = baseline != 0 ? static_cast<double>(counts.second - counts.first) * static_cast<double>(2 * window + 1) /
                                                  static_cast<double>(2 * (baseline - window))
                                            : static_cast<double>(trains.spike_count(key.first)) * static_cast<double>(trains.spike_count(key.second)) *
                                                  static_cast<double>(2 * window + 1) / static_cast<double>(span);
        const double z = (static_cast<double>(counts.first) - chance) / std::sqrt(chance);
        if (counts.first >= 3 && static_cast<double>(counts.first) >= 1.2 * chance && z >= 0.5) {
            expected.push_back({key.first, key.second, counts.first, chance});
        }
    }
    const graph::CofiringGraph got = graph::cofiring_graph(trains, options);
    CHECK(got.pairs_coinciding == coinciding);
    REQUIRE(got.edges.size() == expected.size());
    for (std::size_t e = 0; e < expected.size(); ++e) {
        CHECK(got.edges[e].a == expected[e].a);
        CHECK(got.edges[e].b == expected[e].b);
        CHECK(got.edges[e].count == expected[e].count);
        CHECK(got.edges[e].expected == Approx(expected[e].expected));
        CHECK(got.graph.adjacent(expected[e].a, expected[e].b));
    }
    CHECK(got.graph.num_edges() == expected.size());
}

TEST_CASE("co-firing cliques are the synchronous assemblies in independent background firing", "[graph][cofiring]") {
    const std::vector<std::vector<NeuronId>> assemblies = {{2, 5, 11, 17}, {3, 8, 13, 21, 30}, {0, 7, 14, 22, 29, 35}};
    // 40 neurons at 5 Hz for 200 s (1 ms ticks), 80 activations each with 1 ms jitter.
    const SpikeTrains trains = with_assemblies(assemblies, 40, 200'000, 0.005, 80, 1, 7);
    CofiringOptions options;
    options.window = 2;
    options.baseline = 20;
    options.min_count = 20;
    options.min_ratio = 3;
    const graph::CofiringGraph cofiring = graph::cofiring_graph(trains, options);
    std::vector<std::vector<NeuronId>> found;
    graph::CliqueOptions cliques;
    cliques.min_size = 3;
    cliques.backend = Backend::Cpu;
    graph::enumerate_maximal_cliques(cofiring.graph, cliques,
                                     [&](std::span<const graph::Vertex> c) { found.emplace_back(c.begin(), c.end()); });
    std::sort(found.begin(), found.end());
    std::vector<std::vector<NeuronId>> truth = assemblies;
    std::sort(truth.begin(), truth.end());
    CHECK(found == truth);
    CHECK(cofiring.edges.size() == 6 + 10 + 15);  // no edge outside an assembly
    // The same against constant rates (the truth here): the same edges.
    options.baseline = 0;
    const graph::CofiringGraph flat = graph::cofiring_graph(trains, options);
    const auto pairs = [](const graph::CofiringGraph& g) {
        std::vector<std::pair<NeuronId, NeuronId>> out;
        for (const graph::CofiringPair& p : g.edges) out.emplace_back(p.a, p.b);
        return out;
    };
    CHECK(pairs(flat) == pairs(cofiring));
}

TEST_CASE("co-firing keeps neurons that only ever fire together (no chance coincidences at all)", "[graph][cofiring]") {
    std::vector<Spike> spikes;
    for (Tick t = 100; t < 100'000; t += 1000) {  // 0 and 1 together, 2 on its own, far from both
        spikes.push_back({t, 0});
        spikes.push_back({t + 1, 1});
        spikes.push_back({t + 500, 2});
    }
    const SpikeTrains trains = trains_of(spikes, 3, 100'000);
    CofiringOptions options;
    options.window = 2;
    options.baseline = 20;
    options.min_count = 10;
    options.min_ratio = 2;
    options.min_z = 5;
    const graph::CofiringGraph got = graph::cofiring_graph(trains, options);
    REQUIRE(got.edges.size() == 1);
    CHECK(got.edges[0].a == 0);
    CHECK(got.edges[0].b == 1);
    CHECK(got.edges[0].count == 100);
    CHECK(got.edges[0].expected == 0);
}

TEST_CASE("co-firing refuses a negative window and a baseline not a step longer than the window", "[graph][cofiring]") {
    const SpikeTrains trains = trains_of({{1, 0}, {2, 1}}, 2, 10);
    CofiringOptions negative;
    negative.window = -1;
    CHECK_THROWS_AS(graph::cofiring_graph(trains, negative), UsageError);
    CofiringOptions short_baseline;
    short_baseline.window = 5;
    short_baseline.baseline = 5;
    CHECK_THROWS_AS(graph::cofiring_graph(trains, short_baseline), UsageError);
    // On a grid of 10 ticks, a baseline within the window's last step is no longer either.
    const SpikeTrains coarse = trains_of({{10, 0}, {20, 1}, {50, 0}}, 2, 100);
    short_baseline.window = 10;
    short_baseline.baseline = 19;
    CHECK_THROWS_AS(graph::cofiring_graph(coarse, short_baseline), UsageError);
    short_baseline.baseline = 20;
    CHECK_NOTHROW(graph::cofiring_graph(coarse, short_baseline));
}
