#pragma once
// Where to draw the vertices of a graph: Graphviz's spring layouts.

#include "spikeminer/app/figures/figure.hpp"

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

}  // namespace spikeminer::figures
