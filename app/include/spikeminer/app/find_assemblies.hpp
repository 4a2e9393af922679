#pragma once

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/graph/cliques.hpp"
#include "spikeminer/graph/cofiring.hpp"

#include <vector>

namespace spikeminer {

struct AssemblySearch {
    graph::CofiringOptions cofiring;
    std::size_t min_size = 3;  ///< smallest assembly (at least 2)
    Backend backend = Backend::Auto;
};

/// What `spikeminer assemblies` and the GUI start from: coincidences within 2 ms, chance
/// from lags up to 20 ms, at least 10 coincidences, twice and 5 standard deviations above
/// chance, assemblies of 3 neurons or more.
AssemblySearch default_assembly_search(const TimeBase& time_base);

struct AssembliesFound {
    graph::CofiringGraph cofiring;
    std::vector<std::vector<NeuronId>> assemblies;  ///< sorted members; largest first, then by members
    graph::CliqueSummary summary;                   ///< where the cliques were enumerated, and why
};

/// Neuron assemblies: the maximal cliques of the recording's co-firing graph with at
/// least `min_size` members (the same for `spikeminer assemblies` and the GUI). Throws
/// UsageError for a min_size under 2 and the co-firing graph's errors; reports progress
/// and throws Cancelled when asked to stop.
AssembliesFound find_assemblies(const SpikeTrains& trains, const AssemblySearch& search, Progress* progress = nullptr);

}  // namespace spikeminer
