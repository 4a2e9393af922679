#pragma once
// The co-firing graph of any window of a run, rebuilt from the run's edge changes (which
// hold only what changed from one window to the next).

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace spikeminer::pipeline {

/// A window's edge: neurons a < b and the weight the changes gave it last.
struct WindowEdge {
    NeuronId a = 0;
    NeuronId b = 0;
    float weight = 0;
    bool operator==(const WindowEdge&) const = default;
};

/// Keeps the graph of every `checkpoint_every`-th window and replays the changes after
/// it, so that any window's graph costs at most that many windows' changes: a time slider
/// steps through thousands of windows at interactive speed without holding every graph.
class WindowEdges {
public:
    /// `changes` in window order, each window < `windows`; throws Error otherwise.
    /// `changes` must outlive this (it is read again by at()).
    WindowEdges(const std::vector<EdgeChange>& changes, std::size_t windows, std::size_t checkpoint_every = 32);
    WindowEdges(std::vector<EdgeChange>&& changes, std::size_t windows, std::size_t checkpoint_every = 32) = delete;

    /// The edges of window `w` (< windows()), sorted by (a, b).
    [[nodiscard]] std::vector<WindowEdge> at(std::size_t w) const;
    /// Every pair joined in some window, sorted: the graph a stable layout is made for.
    [[nodiscard]] const std::vector<std::pair<NeuronId, NeuronId>>& ever() const { return ever_; }
    [[nodiscard]] std::size_t windows() const { return windows_; }

private:
    const std::vector<EdgeChange>* changes_;
    std::size_t windows_;
    std::size_t every_;
    std::vector<std::vector<WindowEdge>> checkpoints_;  // the graph of windows 0, every_, 2 every_, ...
    std::vector<std::size_t> first_change_;              // per window: its first change's index
    std::vector<std::pair<NeuronId, NeuronId>> ever_;
};

}  // namespace spikeminer::pipeline
