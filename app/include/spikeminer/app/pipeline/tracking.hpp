#pragma once
// Assemblies through time: the maximal cliques of one window matched to those of the
// windows before, so that a group that keeps firing together keeps its id.

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// What happened to assemblies between two windows.
enum class EventKind {
    Appears,  ///< a clique that matches no assembly of the windows before: a new assembly
    Grows,    ///< an assembly's clique has more members than in its last window
    Shrinks,  ///< ... fewer members
    Splits,   ///< two cliques match one assembly: the better keeps its id, the other starts a new one (`other`: the parent)
    Merges,   ///< one clique matches two assemblies: the better goes on, the other ends (`other`: the one it joined)
    Ends,     ///< an assembly matched no clique for more than the allowed gap: it ended in its last window
};

/// "appears", "grows", ...
std::string event_name(EventKind kind);

struct AssemblyEvent {
    std::size_t window = 0;    ///< the window where it was seen (Ends: the assembly's last window)
    EventKind kind = EventKind::Appears;
    std::uint32_t assembly = 0;
    std::uint32_t other = 0;   ///< Splits: the parent; Merges: the assembly joined; otherwise unused
    bool operator==(const AssemblyEvent&) const = default;
};

/// One assembly's life.
struct TrackedAssembly {
    std::uint32_t id = 0;
    std::vector<std::size_t> windows;                ///< where it was active, ascending
    std::vector<std::vector<NeuronId>> members;      ///< its members in each of those windows (its clique, or cliques)
    /// The neurons in at least half of its windows (sorted): the assembly's members.
    [[nodiscard]] std::vector<NeuronId> core() const;
    bool operator==(const TrackedAssembly&) const = default;
};

struct TrackingOptions {
    double jaccard = 0.5;      ///< two member sets are one assembly when |A ∩ B| / |A ∪ B| is at least this
    std::size_t max_gap = 1;   ///< windows an assembly may go unseen and still continue
};

/// Follows cliques window by window. Matching: every (assembly, clique) pair whose
/// Jaccard similarity reaches the threshold; taken best first, each assembly goes on with
/// at most one clique and each clique continues at most one assembly. A clique left that
/// matches a taken assembly is the same group seen through missing edges when all its
/// neurons are the assembly's (in the window before or in this one; they join its members
/// for this window), else it splits from it; an assembly left that matches a taken clique
/// merges into the assembly that took it.
class AssemblyTracker {
public:
    explicit AssemblyTracker(TrackingOptions options = {});

    /// The next window's cliques (sorted member lists). Windows come in order, each once.
    void add_window(std::size_t window, const std::vector<std::vector<NeuronId>>& cliques);
    /// Ends the assemblies still open (after the last window).
    void finish();

    [[nodiscard]] const std::vector<TrackedAssembly>& assemblies() const { return assemblies_; }
    /// What happened, in window order once finish() is called.
    [[nodiscard]] const std::vector<AssemblyEvent>& events() const { return events_; }
    /// The assembly id given to each clique of the last window added, in its order.
    [[nodiscard]] const std::vector<std::uint32_t>& last_ids() const { return last_ids_; }

private:
    TrackingOptions options_;
    std::vector<TrackedAssembly> assemblies_;
    std::vector<std::uint32_t> open_;  // ids of assemblies not ended
    std::vector<AssemblyEvent> events_;
    std::vector<std::uint32_t> last_ids_;
};

/// |a ∩ b| of two sorted member lists.
std::size_t shared_members(const std::vector<NeuronId>& a, const std::vector<NeuronId>& b);

/// |a ∩ b| / |a ∪ b| of two sorted member lists (0 for two empty lists).
double jaccard(const std::vector<NeuronId>& a, const std::vector<NeuronId>& b);

}  // namespace spikeminer::pipeline
