#pragma once

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/graph/graph.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace spikeminer::graph {

/// How the GPU engine splits the search into independent pieces: one subtree per vertex
/// (L1) or one per edge (L2: more, smaller pieces for graphs with few heavy vertices; see
/// GpuCliqueOptions::l2_from).
enum class SubtreeLevel { L1, L2 };

/// What each GPU subtree keeps as bitsets: the edges among its candidates only (partial,
/// IP; the excluded vertices are looked up in the graph) or also those from its excluded
/// vertices to its candidates (full, IPX). Auto takes IP when the maximum degree is over
/// 200 times the degeneracy (Almasri et al.'s rule: IPX would not fit), else IPX.
enum class InducedSubgraph { Auto, Partial, Full };

struct GpuCliqueOptions {
    /// L2 by default: faster than L1 on the dense SNAP graphs (bench/RESULTS.md, "Maximal
    /// cliques, GPU path").
    SubtreeLevel level = SubtreeLevel::L2;
    /// L2 splits only the vertices with at least this many later neighbours, one subtree
    /// per edge; the others stay one subtree each (where one set-up costs less than one
    /// per edge). 32: the fastest or within noise of it on every graph measured
    /// (bench/RESULTS.md, the l2_from table).
    std::size_t l2_from = 32;
    InducedSubgraph induced = InducedSubgraph::Auto;
    bool worker_list = true;    ///< idle workers take branches from busy ones
    /// The fewest candidates (|P|) of a branch worth handing over; 0: a quarter of the
    /// degeneracy, at least 16 and at most 32. Fewer hands over subtrees too small to repay
    /// the receiver's set-up; more leaves a long tail, or no sharing at all on a graph whose
    /// |P| never gets there (measured: bench/RESULTS.md, the hand-over threshold).
    std::size_t hand_over_from = 0;
    unsigned lanes = 0;         ///< lanes per worker: 4, 8, 16 or 32 (0: from the degeneracy)
    std::vector<int> devices;   ///< CUDA devices to share the subtrees over (empty: device 0)
    std::size_t memory_budget = 0;  ///< bytes per device for the search (0: 80% of the free memory)
};

/// Below this many edges the CPU search runs on one thread when it chooses (threads 0): the
/// whole graph is one chunk of work, searched before a team of threads would start and join
/// (by far, on a busy host). The pipeline reads window graphs under it in batches, one
/// thread or one GPU warp each (app/src/pipeline/window_readings.hpp).
inline constexpr std::size_t kOneThreadBelowEdges = 4096;

struct CliqueOptions {
    std::size_t min_size = 1;   ///< report only maximal cliques of at least this size (pruned in the search)
    std::uint64_t limit = 0;    ///< stop after this many cliques (0: all)
    unsigned threads = 0;       ///< CPU threads, 0: all (one below kOneThreadBelowEdges edges)
    /// Auto takes the GPU when there is one and the graph has at least kGpuEdges edges
    /// (below that the CPU finishes in a millisecond or two, sooner than a GPU starts),
    /// to count or to list in batches; cliques one at a time (a CliqueSink, called under
    /// one lock) stay on the CPU, whose threads hand them over sooner (bench/RESULTS.md).
    Backend backend = Backend::Auto;
    GpuCliqueOptions gpu;
    Progress* progress = nullptr;
};

/// Auto's threshold (see CliqueOptions::backend): between the largest SNAP graph the 16-core
/// CPU counted sooner (as-caida, 52,861 edges) and the smallest the GPU did (wiki-Vote,
/// 100,762), bench/RESULTS.md.
inline constexpr std::size_t kGpuEdges = 75'000;

struct CliqueSummary {
    std::uint64_t count = 0;             ///< maximal cliques reported
    std::vector<std::uint64_t> by_size;  ///< by_size[k] = cliques of k vertices
    bool stopped_at_limit = false;
    std::size_t degeneracy = 0;          ///< the most later neighbours of a vertex in the search's order
    std::uint64_t hand_overs = 0;        ///< GPU: branches busy workers handed to idle ones
    Backend backend = Backend::Cpu;      ///< where they were enumerated
    /// Why auto chose this backend, or why the GPU fell back; on the GPU, its plan and the
    /// milliseconds of its phases.
    std::string note;
};

/// Called with each maximal clique as a sorted vertex list. Calls come from several
/// threads, one at a time (the enumerator serializes them), in no particular order.
using CliqueSink = std::function<void(std::span<const Vertex>)>;

/// Maximal cliques handed over in bulk: clique i is vertices[offsets[i], offsets[i + 1]),
/// sorted ascending.
struct CliqueBatch {
    std::span<const Vertex> vertices;
    std::span<const std::size_t> offsets;  ///< one more entry than cliques, the first 0
    [[nodiscard]] std::size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    [[nodiscard]] std::span<const Vertex> operator[](std::size_t i) const {
        return vertices.subspan(offsets[i], offsets[i + 1] - offsets[i]);
    }
};

/// Called with batches of maximal cliques (thousands a call), each clique in exactly one
/// batch, from several threads at once: the sink does its own work (formatting, say) in
/// the calling thread and serializes only what must be (a file's writes).
using CliqueBatchSink = std::function<void(const CliqueBatch&)>;

/// Maximal cliques, each exactly once, on the backend the options ask for; the GPU falls
/// back to the CPU (saying so in the note) when the graph does not fit in its memory.
/// CPU: Bron–Kerbosch with Tomita's pivot over a degeneracy ordering (Eppstein, Löffler,
/// Strash), one subproblem per vertex on bitsets, shared out to threads dynamically.
/// GPU: the same search after Almasri et al. (see src/cuda/clique_search.cuh).
CliqueSummary enumerate_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueSink& sink = {});

/// The same, the cliques handed over in batches (the fast way to list millions: no lock
/// per clique, and the sink's own work runs on every thread that delivers).
CliqueSummary list_maximal_cliques(const Graph& graph, const CliqueOptions& options, const CliqueBatchSink& sink);

struct GpmaView;

/// The same for a graph held on the current GPU by GPMA+ (its view: both directions of
/// every one of `edges` edges; unchanged until the call returns). Where the GPU is chosen,
/// as for a host graph of that size, the search reads a compact CSR made from the view on
/// the device, with no copy through the host; where the CPU is (auto's choice, a build
/// without CUDA, or the GPU's fallback), `to_host()` gives it the graph.
CliqueSummary enumerate_maximal_cliques(const GpmaView& graph, std::size_t edges, const std::function<Graph()>& to_host,
                                        const CliqueOptions& options, const CliqueSink& sink = {});

}  // namespace spikeminer::graph
