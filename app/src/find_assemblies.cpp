// See find_assemblies.hpp.
#include "spikeminer/app/find_assemblies.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer {

AssemblySearch default_assembly_search(const TimeBase& time_base) {
    AssemblySearch search;
    search.cofiring.lags = mining::parse_lags(mining::kDefaultSyncMs, "", mining::kDefaultBaselineMs, time_base);
    return search;
}

AssembliesFound find_assemblies(const SpikeTrains& trains, const AssemblySearch& search, Progress* progress) {
    if (search.min_size < 2) throw UsageError("an assembly has at least 2 neurons");
    mining::CofiringOptions options = search.cofiring;
    options.window = 0;
    options.step = 0;
    options.progress = progress;
    AssembliesFound found;
    mining::CofiringWindows windows(trains, options);
    windows.next(found.cofiring);
    found.counting = windows.backend();
    // Neuron ids are the graph's vertices (both 32-bit).
    const graph::Graph graph = graph::Graph::from_edges(static_cast<graph::Vertex>(trains.num_neurons()), mining::joined_pairs(found.cofiring));
    graph::CliqueOptions cliques;
    cliques.min_size = search.min_size;
    cliques.backend = search.cofiring.backend;
    cliques.threads = search.cofiring.threads;
    cliques.progress = progress;
    found.summary = graph::enumerate_maximal_cliques(graph, cliques, [&found](std::span<const graph::Vertex> clique) {
        found.assemblies.emplace_back(clique.begin(), clique.end());
    });
    std::sort(found.assemblies.begin(), found.assemblies.end(),
              [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
    return found;
}

}  // namespace spikeminer
