#pragma once

#include "spikeminer/graph/graph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::io {

/// Which field of a stream line holds what (0-based); -1 where there is none.
struct StreamColumns {
    int src = 0;
    int dst = 1;
    int weight = -1;
    int time = -1;
};

/// Parses a column list such as "src,dst,weight,time" or "src,dst,_,time" (`_` or `skip`
/// for a field to ignore); src and dst are required. Throws UsageError.
StreamColumns parse_stream_columns(const std::string& spec);

struct EdgeStreamOptions {
    StreamColumns columns;
    bool signed_weights = false;   ///< allow negative weights (KONECT's signed networks)
    std::uint64_t vertices = 0;    ///< declared vertex count; 0: the largest id + 1
};

struct StreamEdge {
    graph::Vertex src = 0;
    graph::Vertex dst = 0;
    float weight = 1.0F;
    double time = 0;
};

struct EdgeStream {
    std::vector<StreamEdge> edges;  ///< in time order (file order when there are no times)
    graph::Vertex vertices = 0;
    std::size_t out_of_order = 0;   ///< lines whose time was earlier than the line before
};

/// Reads a timestamped edge stream: one `src dst [weight] [time]` per line in the order
/// `columns` gives (further fields ignored), separated by spaces, tabs or commas, `#` and
/// `%` comment lines, plain or gzip-compressed. With a time column the edges are sorted
/// by time (stably). Throws Error naming the file and line for a missing or malformed
/// field, a vertex id at or beyond the declared count, a weight that is not finite, or a
/// negative weight (unless signed weights are allowed), and for a stream without edges.
EdgeStream read_edge_stream(const std::string& path, const EdgeStreamOptions& options = {});

}  // namespace spikeminer::io
