// What the CPU and GPU co-firing counters share: how a bin is cut into pieces.
#include "cofiring_counter.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <limits>

namespace spikeminer::mining::detail {
namespace {

// The most spikes within any span of `reach` + 1 ticks (lags 0..reach), the threads each
// taking a share of the spans' last spikes.
std::uint64_t most_spikes_within(std::span<const Tick> times, Tick reach, unsigned threads) {
    std::uint64_t most = 0;
    const auto n = static_cast<std::ptrdiff_t>(times.size());
#pragma omp parallel reduction(max : most) num_threads(threads != 0 ? threads : static_cast<unsigned>(omp_get_max_threads()))
    {
        std::size_t first = 0;
        bool started = false;
#pragma omp for schedule(static)
        for (std::ptrdiff_t i = 0; i < n; ++i) {
            const Tick t = times[static_cast<std::size_t>(i)];
            if (!started) {
                first = first_at_or_after(times, t - reach);
                started = true;
            }
            while (t - times[first] > reach) ++first;
            most = std::max<std::uint64_t>(most, static_cast<std::uint64_t>(i) - first + 1);
        }
    }
    return most;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> bin_pieces(std::span<const Tick> times, TimeSpan bin, Tick reach, bool one_piece,
                                                            std::size_t most, unsigned threads) {
    const std::size_t first = first_at_or_after(times, bin.start);
    const std::size_t last = first_at_or_after(times, bin.end);
    const std::size_t reached = first_at_or_after(times, bin.start - reach);  // the earliest partner of an end in the bin
    constexpr std::uint64_t kMost = std::numeric_limits<std::uint32_t>::max();
    // Every spike within reach of the bin is a bound on one end's partners; only when that
    // is too coarse are the spikes within any one reach counted.
    std::uint64_t partners = std::max<std::size_t>(1, last - reached);
    if (partners * (last - first) > kMost) partners = std::max<std::uint64_t>(1, most_spikes_within(times.subspan(reached, last - reached), reach, threads));
    const std::uint64_t limit = kMost / partners;
    if (one_piece && last - first > limit) {
        throw Error("a co-firing step of " + std::to_string(bin.length()) + " ticks holds " + std::to_string(last - first) +
                    " spikes, too many for its counts to stay below 2^32: use a shorter step");
    }
    const std::size_t piece = one_piece ? std::max<std::size_t>(last - first, 1) : std::max<std::size_t>(1, std::min<std::uint64_t>(limit, most));
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    for (std::size_t i = first; i < last; i += piece) pieces.emplace_back(i, std::min(last, i + piece));
    return pieces;
}

void check_memory(std::size_t bytes, std::size_t neurons, std::size_t steps_per_window, std::size_t budget) {
    if (bytes <= budget) return;
    throw MemoryBudgetExceeded("co-firing of " + std::to_string(neurons) + " neurons with " + std::to_string(steps_per_window) +
                               " steps a window needs " + format_bytes(static_cast<double>(bytes)) +
                               " of counts, over the memory budget (" + format_bytes(static_cast<double>(budget)) +
                               "): use fewer steps a window (a longer step), fewer lags or a larger memory budget");
}

}  // namespace spikeminer::mining::detail
