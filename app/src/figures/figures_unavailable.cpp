// The figure writers of a build without Cairo and Graphviz: each says what is missing.
#include "spikeminer/app/figures/figure.hpp"
#include "spikeminer/app/figures/graph_layout.hpp"

namespace spikeminer::figures {

void write_figure(const std::string& path, const Figure&) { check_figure_path(path); }

void write_picture(const std::string& path, const Figure&) { check_figure_path(path); }

std::vector<Point> spring_layout(std::size_t, std::span<const std::pair<std::uint32_t, std::uint32_t>>) {
    check_figure_path("graph.svg");
    return {};
}

}  // namespace spikeminer::figures
