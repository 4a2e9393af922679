#pragma once

#include "spikeminer/core/progress.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace spikeminer::graph {

struct CliqueOptions {
    std::size_t min_size = 1;   ///< report only maximal cliques of at least this size (pruned in the search)
    std::uint64_t limit = 0;    ///< stop after this many cliques (0: all)
    unsigned threads = 0;       ///< 0: all
    Progress* progress = nullptr;
};

struct CliqueSummary {
    std::uint64_t count = 0;             ///< maximal cliques reported
    std::vector<std::uint64_t> by_size;  ///< by_size[k] = cliques of k vertices
    bool stopped_at_limit = false;
};

/// Called with each maximal clique as a sorted vertex list. Calls come from several
/// threads, one at a time (the enumerator serializes them), in no particular order.
using CliqueSink = std::function<void(std::span<const Vertex>)>;

/// Maximal cliques on the CPU: Bron–Kerbosch with Tomita's pivot over a degeneracy
/// ordering (Eppstein, Löffler, Strash): one subproblem per vertex (its later neighbours as
/// candidates, its earlier ones as excluded), shared out to threads dynamically; each
/// subproblem runs on bitsets over its own small vertex set.
CliqueSummary enumerate_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink = {});

}  // namespace spikeminer::graph
