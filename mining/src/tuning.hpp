#pragma once
// The mining engines' tuning constants, each with why it has its value; the measurements
// behind them are in bench/RESULTS.md ("Episode counters", "Co-firing engine").

#include <cstddef>
#include <cstdint>

namespace spikeminer::mining::tuning {

/// Threads per block of the counting and co-firing kernels (one thread per end spike,
/// episode or spike): enough warps to hide memory latency at full occupancy.
inline constexpr unsigned kBlock = 256;
/// Threads per block of the GPU FSM counter, whose threads each hold an episode's automata
/// in registers: smaller blocks keep more of them resident.
inline constexpr unsigned kFsmBlock = 128;

/// Below this many spikes a recording costs more to ship to the GPU than to count on the CPU.
inline constexpr std::size_t kSmallRecording = 20'000;
/// Below this many spikes auto computes co-firing windows on the CPU: the GPU's start costs more.
inline constexpr std::size_t kSmallCofiringRecording = 50'000;
/// From this many episodes on, auto counts them with the prefix counter.
inline constexpr std::size_t kManyEpisodes = 256;
/// A batch of at least this many episodes fills the GPU with one thread per episode.
inline constexpr std::size_t kWalkEpisodes = 2048;
/// Ends of prefixes read at once for the test against chance (512 MiB of host memory when
/// they come from the device): few enough to stay small, many enough for every thread.
inline constexpr std::uint64_t kLagCountEntries = std::uint64_t{1} << 26;
/// Host bytes a list store's extend() holds per extension besides the lists it keeps (the
/// extension, its count, order and greedy state, an empty list): what sets its chunks.
inline constexpr std::size_t kExtensionBytes = 160;
/// A group's table of extensions by neuron holds at most this many entries (64 MiB).
inline constexpr std::uint64_t kMaxTableEntries = std::uint64_t{1} << 24;

/// End spikes of one neuron per co-firing block (more blocks share a neuron with more ends).
inline constexpr std::uint32_t kEndsPerBlock = 512;
/// End spikes between two checks for Cancel when one co-firing window is all the work.
inline constexpr std::size_t kPieceSpikes = std::size_t{1} << 20;
/// Candidates a co-firing window has room for before its buffer grows.
inline constexpr std::size_t kFirstCapacity = std::size_t{1} << 16;
/// Bytes of surrogate spikes the GPU's surrogate edge test places in one pass, at most
/// (one surrogate's always): passes of several surrogates keep the device busy.
inline constexpr std::size_t kEdgeSurrogateBytes = std::size_t{1} << 30;
/// Bytes of counter rows a group of end neurons keeps hot on the CPU: a core's L2 cache.
inline constexpr std::size_t kRowsCache = std::size_t{1} << 20;
/// A CPU co-firing slot is counted densely (a vector of each start neuron's spikes within
/// its lags, added to the row of each end spike) when its lags hold, on the mean rate, at
/// least neurons / kDenseSlot spikes: an add of n counts costs about what n / 16 scattered
/// increments do.
inline constexpr double kDenseSlot = 16;
/// CPU co-firing groups per thread at least, for the balance of the threads' work.
inline constexpr std::size_t kGroupsPerThread = 4;
/// Baseline counts below this are looked up in precomputed tables; above, p-values are computed.
inline constexpr std::uint64_t kTableBaselines = 4096;

}  // namespace spikeminer::mining::tuning
