#pragma once
// The graph engines' tuning constants, each with why it has its value; the measurements
// behind them are in bench/RESULTS.md ("Maximal cliques", "Dynamic graphs on the GPU").

#include <bit>
#include <cstddef>

namespace spikeminer::graph::tuning {

/// Threads per block of the element-wise kernels (one thread per key, edge or vertex):
/// enough warps per block to hide memory latency, small enough for full occupancy.
inline constexpr int kThreads = 256;

/// Threads per block of the clique search: each block holds 128 / lanes workers.
inline constexpr int kCliqueBlockThreads = 128;
/// Clique-search blocks per SM the compiler must fit: caps a thread at 80 registers, so
/// that 6 blocks hide the set-up's dependent loads.
inline constexpr int kCliqueMinBlocks = 6;
/// Words of each clique worker's output buffer and of a ring chunk, at least: large enough
/// that a chunk is handed over rarely.
inline constexpr int kChunkWords = 4096;
/// Ring chunks between the device and the host that drains them: a quarter more than the
/// clique workers, rounded up to a power of two (4,096 chunks of 16 KiB on an H200), so
/// that a worker with a full buffer rarely waits for a slot. With fewer slots than workers,
/// the workers queue for slots instead of searching.
constexpr std::size_t ring_slots(std::size_t workers) { return std::bit_ceil(workers + workers / 4); }
/// The most host threads taking listed cliques from the ring (one a core below that): the
/// sink's own work (formatting a file's lines) runs on them, and the ring's chunks, made
/// ready in ticket order, go to whichever thread is free.
inline constexpr unsigned kDrainThreads = 16;

/// Threads of the one-block degeneracy peeling: one block, so phases meet at a block
/// barrier instead of a launch.
inline constexpr int kPeelThreads = 1024;
/// Tiles of a round's edges a warp loads before taking their degrees: independent loads in
/// flight together.
inline constexpr unsigned kTilesAtOnce = 4;

/// The largest GPMA+ batch replayed as a captured CUDA graph: a batch is ~30 kernels, so
/// small ones are launch-bound (graphs halve a small slide); larger ones are sized by their
/// length at each launch. Capturing a larger batch size costs more than its replays ever
/// save (bench/RESULTS.md, "GPMA+'s slow first slides").
inline constexpr std::size_t kGraphSlots = 4096;
/// Up to this many rebalancing windows a key finds its window by binary search; more: a
/// map from segments to windows.
inline constexpr std::size_t kSearchWindowsUpTo = 4096;

/// Below this many vertices (or kOneThreadBelowEdges edges, cliques.hpp), the CPU clique
/// search (threads left to choose) runs on one thread: the whole graph is one chunk of
/// work, and a team would only wait for it.
inline constexpr unsigned kSmallGraph = 256;

}  // namespace spikeminer::graph::tuning
