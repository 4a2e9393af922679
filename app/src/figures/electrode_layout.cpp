// See graph_layout.hpp (electrode_layout).
#include "spikeminer/app/figures/graph_layout.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace spikeminer::figures {

std::vector<Point> electrode_layout(std::span<const Position> positions) {
    std::vector<Point> at(positions.size());
    if (positions.empty()) return at;
    const auto [min_x, max_x] = std::minmax_element(positions.begin(), positions.end(), [](const Position& a, const Position& b) { return a.x < b.x; });
    const auto [min_y, max_y] = std::minmax_element(positions.begin(), positions.end(), [](const Position& a, const Position& b) { return a.y < b.y; });
    const double width = max_x->x - min_x->x;
    const double height = max_y->y - min_y->y;
    // A margin of a ring's radius, so that rings at the edge stay inside.
    constexpr double kRing = 0.015;
    const double scale = (1 - 2 * kRing) / std::max({width, height, 1e-300});
    // Centred along the shorter side.
    const double left = kRing + (1 - 2 * kRing - width * scale) / 2;
    const double top = kRing + (1 - 2 * kRing - height * scale) / 2;
    std::map<std::pair<double, double>, std::vector<std::size_t>> sites;
    for (std::size_t i = 0; i < positions.size(); ++i) sites[{positions[i].x, positions[i].y}].push_back(i);
    for (const auto& [site, units] : sites) {
        const Point centre{left + (site.first - min_x->x) * scale, top + (site.second - min_y->y) * scale};
        for (std::size_t k = 0; k < units.size(); ++k) {
            const double angle = 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(units.size());
            const double r = units.size() == 1 ? 0 : kRing;
            at[units[k]] = {centre.x + r * std::cos(angle), centre.y + r * std::sin(angle)};
        }
    }
    return at;
}

}  // namespace spikeminer::figures
