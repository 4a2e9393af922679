#include "spikeminer/app/io/edge_stream.hpp"

#include "edge_fields.hpp"
#include "text_lines.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace spikeminer::io {
namespace {

double parse_number(std::string_view field, const std::string& where, const char* what) {
    double value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc{} || end != field.data() + field.size() || !std::isfinite(value)) {
        throw Error(where + ": " + what + " " + in_quotes(field) + " is not a finite number");
    }
    return value;
}

}  // namespace

StreamColumns parse_stream_columns(const std::string& spec) {
    StreamColumns columns{-1, -1, -1, -1};
    std::stringstream list(spec);
    std::string name;
    for (int index = 0; std::getline(list, name, ','); ++index) {
        int* slot = name == "src" ? &columns.src : name == "dst" ? &columns.dst : name == "weight" ? &columns.weight
                  : name == "time" ? &columns.time : nullptr;
        if (slot == nullptr && name != "_" && name != "skip") {
            throw UsageError("--columns: unknown column '" + name + "': use src, dst, weight, time and _ to skip one");
        }
        if (slot != nullptr && *slot >= 0) throw UsageError("--columns: '" + name + "' named twice");
        if (slot != nullptr) *slot = index;
    }
    if (columns.src < 0 || columns.dst < 0) throw UsageError("--columns must name src and dst (e.g. src,dst,weight,time)");
    return columns;
}

EdgeStream read_edge_stream(const std::string& path, const EdgeStreamOptions& options) {
    const StreamColumns& c = options.columns;
    const int needed = std::max({c.src, c.dst, c.weight, c.time}) + 1;
    detail::TextLines lines(path);
    EdgeStream stream;
    std::uint64_t largest = 0;
    std::vector<std::string_view> fields;
    std::string_view line;
    while (lines.next(line)) {
        if (detail::is_blank_or_comment(line)) continue;
        const std::string where = path + " line " + std::to_string(lines.line_number());
        fields.clear();
        std::size_t at = 0;
        for (int k = 0; k < needed; ++k) {
            const std::string_view field = detail::next_field(line, at);
            if (field.empty()) {
                throw Error(where + ": expected " + std::to_string(needed) + " fields (--columns), found " + std::to_string(k));
            }
            fields.push_back(field);
        }
        StreamEdge edge;
        edge.src = detail::parse_vertex(fields[static_cast<std::size_t>(c.src)], where);
        edge.dst = detail::parse_vertex(fields[static_cast<std::size_t>(c.dst)], where);
        if (options.vertices != 0 && std::max(edge.src, edge.dst) >= options.vertices) {
            throw Error(where + ": vertex id " + std::to_string(std::max(edge.src, edge.dst)) + " is beyond the " +
                        std::to_string(options.vertices) + " vertices declared");
        }
        if (c.weight >= 0) {
            const double w = parse_number(fields[static_cast<std::size_t>(c.weight)], where, "weight");
            if (w < 0 && !options.signed_weights) {
                throw Error(where + ": negative weight " + in_quotes(fields[static_cast<std::size_t>(c.weight)]) +
                            " (allow them with --signed-weights)");
            }
            if (std::fabs(w) > std::numeric_limits<float>::max()) {
                throw Error(where + ": weight " + in_quotes(fields[static_cast<std::size_t>(c.weight)]) +
                            " is beyond a 32-bit float's range (3.4e38), in which the graph keeps its weights");
            }
            edge.weight = static_cast<float>(w);
        }
        if (c.time >= 0) {
            edge.time = parse_number(fields[static_cast<std::size_t>(c.time)], where, "time");
            if (!stream.edges.empty() && edge.time < stream.edges.back().time) ++stream.out_of_order;
        }
        largest = std::max<std::uint64_t>({largest, edge.src, edge.dst});
        stream.edges.push_back(edge);
    }
    if (stream.edges.empty()) throw Error(path + ": holds no edges");
    if (stream.out_of_order != 0) {
        std::stable_sort(stream.edges.begin(), stream.edges.end(),
                         [](const StreamEdge& a, const StreamEdge& b) { return a.time < b.time; });
    }
    stream.vertices = static_cast<graph::Vertex>(options.vertices != 0 ? options.vertices : largest + 1);
    return stream;
}

}  // namespace spikeminer::io
