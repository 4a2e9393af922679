// The simulator's assemblies scenario end to end through the library: spikes, co-firing
// graph, maximal cliques; every embedded assembly is found exactly and nothing else of
// three or more neurons is.
#include "catch.hpp"

#include "spikeminer/app/assembly_recovery.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/cofiring.hpp"
#include "spikeminer/simulator/simulate.hpp"

using namespace spikeminer;

TEST_CASE("assemblies: the assemblies scenario's six assemblies are the co-firing graph's cliques", "[assemblies]") {
    simulator::NetworkConfig config = simulator::scenario("assemblies");
    config.duration_s = 300;
    config.seed = GENERATE(1, 2);
    const simulator::Simulation simulation = simulator::simulate(config);
    graph::CofiringOptions cofiring;  // what `spikeminer assemblies` uses by default, in 1 us ticks
    cofiring.window = 2000;
    cofiring.baseline = 20000;
    cofiring.min_count = 10;
    cofiring.min_ratio = 2;
    cofiring.min_z = 5;
    const graph::CofiringGraph graph = graph::cofiring_graph(simulation.trains, cofiring);
    graph::CliqueOptions options;
    options.min_size = 3;
    options.backend = Backend::Cpu;
    std::vector<std::vector<NeuronId>> found;
    graph::enumerate_maximal_cliques(graph.graph, options, [&](std::span<const graph::Vertex> c) { found.emplace_back(c.begin(), c.end()); });
    REQUIRE(simulation.truth.assemblies.size() == 6);
    CHECK(found.size() == 6);
    for (const AssemblyRecovery& r : recovered_assemblies(simulation.truth, found)) {
        INFO("assembly " << r.assembly);
        CHECK(r.jaccard == 1.0);
    }
}
