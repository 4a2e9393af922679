#include "spikeminer/graph/dynamic_graph.hpp"

#include "spikeminer/core/error.hpp"

#include <string>

namespace spikeminer::graph {

void check_edge(Vertex src, Vertex dst, Vertex vertices) {
    if (src >= vertices || dst >= vertices) {
        throw Error("edge (" + std::to_string(src) + ", " + std::to_string(dst) + ") names a vertex beyond the " +
                    std::to_string(vertices) + " declared");
    }
}

}  // namespace spikeminer::graph
