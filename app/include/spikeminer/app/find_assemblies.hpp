#pragma once

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <vector>

namespace spikeminer {

struct AssemblySearch {
    /// The co-firing test over the whole recording (its window and step are ignored; its
    /// backend also runs the cliques).
    mining::CofiringOptions cofiring;
    std::size_t min_size = 3;  ///< smallest assembly (at least 2)
};

/// What `spikeminer assemblies` and the GUI start from: neurons are joined when they fire
/// within 2 ms of each other (either way) more often than chance, chance taken from the
/// same pair at lags of 20-40 ms, with Benjamini-Hochberg at q = 0.01 over all pairs;
/// assemblies of 3 neurons or more.
AssemblySearch default_assembly_search(const TimeBase& time_base);

struct AssembliesFound {
    mining::CofiringWindow cofiring;                ///< the whole recording's co-firing edges
    BackendChoice counting;                         ///< where the co-firing was counted, and why
    std::vector<std::vector<NeuronId>> assemblies;  ///< sorted members; largest first, then by members
    graph::CliqueSummary summary;                   ///< where the cliques were enumerated, and why
};

/// Neuron assemblies: the maximal cliques of the recording's co-firing graph (neurons
/// joined by at least one co-firing edge) with at least `min_size` members, the same for
/// `spikeminer assemblies` and the GUI. Throws UsageError for a min_size under 2 and for
/// the co-firing options' errors; reports progress and throws Cancelled when asked to stop.
AssembliesFound find_assemblies(const SpikeTrains& trains, const AssemblySearch& search, Progress* progress = nullptr);

}  // namespace spikeminer
