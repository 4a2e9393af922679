// The pipeline's window stages on windows fed to it: small graphs read in batches and
// larger ones (kOneThreadBelowEdges edges or more) in the dynamic graph, mixed in one run, give
// each window the reading of its own graph alone (components, the most central neuron,
// the maximal cliques: small_graphs.hpp, checked against oracles in graph_tests), in
// window order, and the edge changes replay to each window's graph.
#include "catch.hpp"
#include "undirected_edges.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/app/window_graph.hpp"
#include "spikeminer/graph/small_graphs.hpp"

#include <algorithm>
#include <map>
#include <random>

using namespace spikeminer;
using graph::UndirectedEdge;

namespace {

constexpr NeuronId kNeurons = 2000;

// `draws` random pairs among the first `neurons` neurons (repeats and self pairs dropped).
std::vector<UndirectedEdge> random_window(std::uint64_t seed, NeuronId neurons, int draws) {
    std::mt19937_64 random(seed);
    std::vector<UndirectedEdge> edges;
    for (int k = 0; k < draws; ++k) {
        const auto a = static_cast<NeuronId>(random() % neurons);
        const auto b = static_cast<NeuronId>(random() % neurons);
        edges.push_back({a, b, 5.0F});
    }
    return test::sorted_unique(edges);
}

// A few hundred edges among 150 neurons, with triangles and larger cliques.
std::vector<UndirectedEdge> small_window(std::uint64_t seed) { return random_window(seed, 150, 400); }

// Thousands of edges among 400 neurons: past the batches (kOneThreadBelowEdges), under
// kGpuWindowEdges.
std::vector<UndirectedEdge> medium_window(std::uint64_t seed) { return random_window(seed, 400, 6000); }

// More than kGpuWindowEdges edges between two halves of the neurons, and a clique of six
// planted in one half (its triangles are the graph's cliques of three or more).
std::vector<UndirectedEdge> large_window(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<UndirectedEdge> edges;
    std::bernoulli_distribution joined(0.11);
    for (NeuronId a = 0; a < kNeurons / 2; ++a) {
        for (NeuronId b = kNeurons / 2; b < kNeurons; ++b) {
            if (joined(random)) edges.push_back({a, b, 5.0F});
        }
    }
    const NeuronId first = static_cast<NeuronId>(random() % 1000);
    for (NeuronId a = first; a < first + 6; ++a) {
        for (NeuronId b = a + 1; b < first + 6; ++b) edges.push_back({a, b, 5.0F});
    }
    return test::sorted_unique(edges);
}

}  // namespace

TEST_CASE("pipeline: small windows read in batches and large ones in the dynamic graph give each window its own reading", "[pipeline]") {
    std::vector<std::vector<UndirectedEdge>> fed = {small_window(1), small_window(2), large_window(3), large_window(4),
                                                    small_window(5), large_window(6), {},             small_window(7),
                                                    medium_window(8), medium_window(9), small_window(10)};
    REQUIRE(fed[2].size() >= app::kGpuWindowEdges);
    REQUIRE(fed[8].size() >= graph::kOneThreadBelowEdges);
    REQUIRE(fed[8].size() < app::kGpuWindowEdges);
    std::vector<Spike> spikes;
    NeuronTable table;
    for (NeuronId n = 0; n < kNeurons; ++n) {
        table.labels.push_back("n" + std::to_string(n));
        spikes.push_back({static_cast<Tick>(n) * 10, n});
    }
    pipeline::Input input;
    input.recording.trains = SpikeTrains::from_spikes(std::move(spikes), std::move(table), TimeBase{1000});
    input.recording.trains.set_span(TimeSpan{0, 100'000});
    pipeline::RunConfig config;
    config.input = "windows.csv";  // a name: the windows come from the feed
    config.backend = "cpu";
    config.min_size = 3;
    std::size_t next = 0;
    const pipeline::WindowFeed feed = [&](mining::CofiringWindows&, mining::CofiringWindow& window) {
        if (next == fed.size()) return false;
        window = {};
        window.index = next;
        window.span = {static_cast<Tick>(next) * 1000, static_cast<Tick>(next) * 1000 + 10'000};
        for (const UndirectedEdge& e : fed[next]) window.edges.push_back({e.a, e.b, mining::kSynchrony, 9, 0, 1.0, 1e-6, 1e-5});
        ++next;
        return true;
    };
    const pipeline::PipelineResult result = pipeline::run_pipeline(input, config, nullptr, feed);
    REQUIRE(result.windows.size() == fed.size());
    std::map<std::pair<NeuronId, NeuronId>, float> replayed;
    std::size_t change = 0;
    for (std::size_t i = 0; i < fed.size(); ++i) {
        INFO("window " << i << ", " << fed[i].size() << " edges");
        const pipeline::WindowSummary& w = result.windows[i];
        CHECK(w.index == i);
        CHECK(w.edges == fed[i].size());
        const graph::SmallGraphReading expected = graph::read_small_graph(kNeurons, fed[i]);
        CHECK(w.components == expected.components);
        CHECK(w.largest_component == expected.largest_component);
        CHECK(w.most_central == expected.most_central);
        CHECK(w.cliques == graph::small_graph_cliques(kNeurons, fed[i], 3));
        if (fed[i].size() >= app::kGpuWindowEdges) CHECK(!w.cliques.empty());
        for (; change < result.changes.size() && result.changes[change].window == i; ++change) {
            const pipeline::EdgeChange& c = result.changes[change];
            if (c.kind == pipeline::EdgeChange::Kind::Erased) {
                CHECK(replayed.erase({c.a, c.b}) == 1);
            } else {
                replayed[{c.a, c.b}] = c.weight;
            }
        }
        std::map<std::pair<NeuronId, NeuronId>, float> own;
        for (const UndirectedEdge& e : fed[i]) own[{e.a, e.b}] = 5.0F;
        CHECK(replayed == own);
    }
    CHECK(change == result.changes.size());
}
