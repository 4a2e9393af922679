// See graph_layout.hpp: the layout by Graphviz (libgvc).
#include "spikeminer/app/figures/graph_layout.hpp"

#include "spikeminer/core/error.hpp"

#include <graphviz/gvc.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

namespace spikeminer::figures {
namespace {

constexpr std::size_t kLargestForNeato = 2000;  // neato's stress majorization is quadratic in the vertices

struct GraphDeleter {
    void operator()(Agraph_t* graph) const { agclose(graph); }
};

// libgvc takes char* where it only reads.
char* text(const char* s) { return const_cast<char*>(s); }

// One Graphviz context for the process, used by one layout at a time: Graphviz is not
// thread-safe, and its text plugin keeps pointers into the first context's fonts, which a
// second context would read after they were freed.
std::mutex graphviz;
GVC_t* context() {
    static GVC_t* const gvc = gvContext();
    return gvc;
}

}  // namespace

std::vector<Point> spring_layout(std::size_t vertices, std::span<const std::pair<std::uint32_t, std::uint32_t>> edges) {
    std::vector<Point> at(vertices, Point{0.5, 0.5});
    if (vertices < 2) return at;
    const std::lock_guard lock(graphviz);
    agseterr(AGERR);  // Graphviz's warnings are about its own choices, not the user's data
    GVC_t* const gvc = context();
    const std::unique_ptr<Agraph_t, GraphDeleter> owner(agopen(text("g"), Agundirected, nullptr));
    Agraph_t* graph = owner.get();
    agattr(graph, AGRAPH, text("start"), text("1"));  // a fixed seed: the same graph, the same layout
    agattr(graph, AGRAPH, text("pack"), text("36"));  // components apart by half an edge's length
    agattr(graph, AGNODE, text("shape"), text("point"));
    agattr(graph, AGNODE, text("label"), text(""));  // the figure writes the labels
    std::vector<Agnode_t*> nodes(vertices);
    for (std::size_t v = 0; v < vertices; ++v) nodes[v] = agnode(graph, text(std::to_string(v).c_str()), 1);
    for (const auto& [a, b] : edges) {
        if (a >= vertices || b >= vertices) {
            throw Error("graph layout: an edge names vertex " + std::to_string(std::max(a, b)) + " of " + std::to_string(vertices));
        }
        if (a != b) agedge(graph, nodes[a], nodes[b], nullptr, 1);
    }
    if (gvLayout(gvc, graph, vertices > kLargestForNeato ? "sfdp" : "neato") != 0) {
        throw Error("graph layout: Graphviz could not lay out the graph");
    }
    double lo_x = std::numeric_limits<double>::max(), lo_y = lo_x, hi_x = -lo_x, hi_y = -lo_x;
    for (std::size_t v = 0; v < vertices; ++v) {
        at[v] = {ND_coord(nodes[v]).x, -ND_coord(nodes[v]).y};  // Graphviz's y grows upwards
        lo_x = std::min(lo_x, at[v].x), hi_x = std::max(hi_x, at[v].x);
        lo_y = std::min(lo_y, at[v].y), hi_y = std::max(hi_y, at[v].y);
    }
    gvFreeLayout(gvc, graph);
    const double side = std::max({hi_x - lo_x, hi_y - lo_y, 1e-9});
    for (Point& p : at) p = {(p.x - lo_x) / side + (1 - (hi_x - lo_x) / side) / 2, (p.y - lo_y) / side + (1 - (hi_y - lo_y) / side) / 2};
    return at;
}

}  // namespace spikeminer::figures
