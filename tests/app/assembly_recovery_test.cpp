// The simulator's assemblies scenario end to end through find_assemblies with the
// defaults of the command line and the GUI: every embedded assembly is found exactly and
// nothing else of three or more neurons is.
#include "catch.hpp"

#include "spikeminer/app/assembly_recovery.hpp"
#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/simulator/simulate.hpp"

using namespace spikeminer;

TEST_CASE("assemblies: the assemblies scenario's six assemblies are the co-firing graph's cliques", "[assemblies]") {
    simulator::NetworkConfig config = simulator::scenario("assemblies");
    config.duration_s = 300;
    config.seed = GENERATE(1, 2);
    const simulator::Simulation simulation = simulator::simulate(config);
    AssemblySearch search = default_assembly_search(simulation.trains.time_base());
    search.cofiring.backend = Backend::Cpu;
    const std::vector<std::vector<NeuronId>> found = find_assemblies(simulation.trains, search).assemblies;
    REQUIRE(simulation.truth.assemblies.size() == 6);
    CHECK(found.size() == 6);
    for (const AssemblyRecovery& r : recovered_assemblies(simulation.truth, found)) {
        INFO("assembly " << r.assembly);
        CHECK(r.jaccard == 1.0);
    }
}
