#pragma once
// Where to draw the vertices of a graph: Graphviz's spring layouts, or the electrodes'
// positions.

#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace spikeminer::figures {

/// Positions in [0, 1] x [0, 1] for vertices 0..vertices-1 of an undirected graph:
/// Graphviz's neato (stress majorization; sfdp above 2,000 vertices), its connected
/// components packed side by side, the aspect ratio kept. The same graph gets the same
/// layout. Needs a build with figures (figures_available()).
std::vector<Point> spring_layout(std::size_t vertices, std::span<const std::pair<std::uint32_t, std::uint32_t>> edges);

/// Positions in [0, 1] x [0, 1] for neurons at electrode positions (µm): the array's
/// plane scaled to the square, its aspect ratio kept; the units of one electrode on a
/// small ring around it, so that each stays visible. Any build.
std::vector<Point> electrode_layout(std::span<const Position> positions);

}  // namespace spikeminer::figures
