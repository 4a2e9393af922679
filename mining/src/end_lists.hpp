#pragma once
// End lists: what the prefix counter keeps of an episode between mining levels.
//
// The end list of an episode is, for every end event (spike of its last neuron) that
// closes an occurrence, the pair (end time, latest start of an occurrence ending there),
// in end order. It decides the count: greedy interval scheduling needs, per end, only the
// latest start (among occurrences with the same end, the one starting last is compatible
// with every schedule the others are). And it extends by one node without looking back:
//
//   An occurrence of (e1..ek, ek+1) ending at c is an occurrence of (e1..ek) ending at
//   some b with lo < t(c) - t(b) <= hi. So start(c) = max start(b) over the entries b of
//   the prefix's list with t(b) in [t(c) - hi, t(c) - lo).
//
//   The starts of a list never decrease along it. True for one node (start = end). If it
//   holds for the prefix, the maximum over a window of entries is the window's last
//   entry; for c before c' the last entry before t(c) - lo is at or before the last one
//   before t(c') - lo, so start(c) <= start(c').
//
//   Hence start(c) = start of the last prefix entry b with t(b) < t(c) - lo, provided
//   t(b) >= t(c) - hi; else c closes no occurrence. Read from the prefix's side: entry j
//   (time t_j, next entry at t_j+1) gives its start to exactly the spikes c of ek+1 with
//       t_j + lo < t(c) <= min(t_j + hi, t_j+1 + lo)      (no t_j+1: no second bound),
//   ranges that are disjoint and ordered, so the new list comes out in end order.
//
// Every spike of ek+1 in such a range is an entry, duplicates included (they take the
// same start; the greedy refuses the second). Counting the extensions of one prefix by
// all neurons and intervals at once reads, per entry, the stream's events in
// (t_j + min lo, t_j + max hi] once, instead of each neuron's spikes once per extension.

#include "host_device.hpp"

#include "spikeminer/core/spike_trains.hpp"
#include "spikeminer/mining/chance.hpp"
#include "spikeminer/mining/episode.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace spikeminer::mining::detail {

/// An episode to count as its prefix's list extended by one node: `parent` is a stored
/// list's id, or seed(n) for the one-node episode (n), whose list is n's spikes.
struct Extension {
    std::uint32_t parent = 0;
    Interval gap;
    NeuronId neuron = 0;

    static constexpr std::uint32_t kSeed = std::uint32_t{1} << 31;
    static constexpr std::uint32_t seed(NeuronId n) { return kSeed | n; }
    [[nodiscard]] bool from_seed() const { return (parent & kSeed) != 0; }
    [[nodiscard]] NeuronId seed_neuron() const { return parent & ~kSeed; }
};

/// Extensions that share a prefix: order[first, last) of prefix_order()'s order.
struct PrefixGroup {
    std::uint32_t parent;
    std::size_t first;
    std::size_t last;
};

/// The extensions' indices sorted by (prefix, neuron), stably, and their groups by prefix:
/// the layout both stores extend in (all extensions of a prefix at once).
std::vector<std::uint32_t> prefix_order(std::span<const Extension> extensions, std::vector<PrefixGroup>& groups);

/// One candidate of the test against chance: the ends of list `prefix` (a stored list's id,
/// or Extension::seed(neuron)) against the spikes of `neuron` at `gap`.
struct LagQuery {
    std::uint32_t prefix;
    NeuronId neuron;
    Interval gap;
};

/// End lists held where they are computed (host memory or the device), numbered from 0.
class ListStore {
public:
    virtual ~ListStore() = default;
    /// Counts every extension (its list's greedy count) and appends to the store, in the
    /// order given, the lists of those counted at least `keep_at_least`.
    virtual std::vector<std::uint64_t> extend(std::span<const Extension> extensions, std::uint64_t keep_at_least) = 0;
    /// Keeps only the lists `ids` (all made since the last retain), renumbered 0, 1, ...
    /// in that order.
    virtual void retain(std::span<const std::uint32_t> ids) = 0;
    /// How many lists are stored.
    [[nodiscard]] virtual std::size_t size() const = 0;
    /// Entries of list `id`.
    [[nodiscard]] virtual std::uint64_t length(std::uint32_t id) const = 0;
    /// Bytes of host memory the stored lists take (a device store's lists take none).
    [[nodiscard]] virtual std::size_t host_bytes() const = 0;
    /// The end times of lists `ids`, each in end order: views of the store's own memory (a
    /// host store's) or of `scratch`, filled from the device.
    [[nodiscard]] virtual std::vector<std::span<const Tick>> ends(std::span<const std::uint32_t> ids,
                                                                 std::vector<std::vector<Tick>>& scratch) const = 0;
    /// The test's lag counts (count_lags, lag_counts.hpp) of each query, counted where the
    /// lists are (a device store's on its device), or nullopt when the store leaves them to
    /// the caller, who counts from ends().
    [[nodiscard]] virtual std::optional<std::vector<LagCounts>> lag_counts_here(std::span<const LagQuery> queries,
                                                                               const Interval& baseline) const {
        (void)queries;
        (void)baseline;
        return std::nullopt;
    }
};

/// The first index in [from, n) whose time is after `value` (or n), by galloping from
/// `from`: O(log distance), for cursors that move forward in small steps.
SPIKEMINER_HOST_DEVICE inline std::size_t first_after(const Tick* times, std::size_t from, std::size_t n, Tick value) {
    std::size_t lo = from;  // every index before lo holds a time <= value
    std::size_t hi = from;
    for (std::size_t step = 1; hi < n && times[hi] <= value; step *= 2) {
        lo = hi + 1;
        hi += step;
    }
    if (hi > n) hi = n;
    while (lo < hi) {  // the answer is in [lo, hi]: times[hi] > value when hi < n
        const std::size_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= value) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/// The last time of a spike of the new neuron that takes its start from the prefix's
/// entry at t_j: min(t_j + hi, next + lo), without the second bound when the entry is
/// the list's last (has_next false).
SPIKEMINER_HOST_DEVICE inline Tick last_taker(Tick t_j, bool has_next, Tick next, Tick lo, Tick hi) {
    const Tick upper = t_j + hi;
    return has_next && next + lo < upper ? next + lo : upper;
}

/// Whether a spike at time t of the new neuron takes its start from the entry at t_j:
/// t_j + lo < t <= last_taker(...).
SPIKEMINER_HOST_DEVICE inline bool takes_from(Tick t, Tick t_j, bool has_next, Tick next, Tick lo, Tick hi) {
    return t > t_j + lo && t <= last_taker(t_j, has_next, next, lo, hi);
}

/// The greedy count of an end list, fed entry by entry in end order: an entry is taken
/// whenever its start is after the end of the last one taken.
struct GreedyCount {
    std::uint64_t count = 0;
    Tick last_end = 0;

    /// Whether the entry is taken.
    SPIKEMINER_HOST_DEVICE bool offer(Tick end, Tick start) {
        if (count > 0 && start <= last_end) return false;
        ++count;
        last_end = end;
        return true;
    }
};

}  // namespace spikeminer::mining::detail
