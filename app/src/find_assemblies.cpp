// See find_assemblies.hpp.
#include "spikeminer/app/find_assemblies.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer {

AssemblySearch default_assembly_search(const TimeBase& time_base) {
    AssemblySearch search;
    search.cofiring.window = time_base.from_seconds(0.002);
    search.cofiring.baseline = time_base.from_seconds(0.020);
    search.cofiring.min_count = 10;
    search.cofiring.min_ratio = 2;
    search.cofiring.min_z = 5;
    return search;
}

AssembliesFound find_assemblies(const SpikeTrains& trains, const AssemblySearch& search, Progress* progress) {
    if (search.min_size < 2) throw UsageError("an assembly has at least 2 neurons");
    AssembliesFound found;
    found.cofiring = graph::cofiring_graph(trains, search.cofiring, progress);
    graph::CliqueOptions options;
    options.min_size = search.min_size;
    options.backend = search.backend;
    options.progress = progress;
    found.summary = graph::enumerate_maximal_cliques(found.cofiring.graph, options, [&found](std::span<const graph::Vertex> clique) {
        found.assemblies.emplace_back(clique.begin(), clique.end());
    });
    std::sort(found.assemblies.begin(), found.assemblies.end(),
              [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
    return found;
}

}  // namespace spikeminer
