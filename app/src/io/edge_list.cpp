#include "spikeminer/app/io/edge_list.hpp"

#include "text_lines.hpp"

#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace spikeminer::io {
namespace {

bool is_separator(char c) { return c == ' ' || c == '\t' || c == ','; }

// The next field of `line` from `at`, skipping separators.
std::string_view next_field(std::string_view line, std::size_t& at) {
    while (at < line.size() && is_separator(line[at])) ++at;
    const std::size_t start = at;
    while (at < line.size() && !is_separator(line[at])) ++at;
    return line.substr(start, at - start);
}

graph::Vertex parse_vertex(std::string_view field, const std::string& where) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc{} && value >= (std::uint64_t{1} << 32) - 1)) {
        throw Error(where + ": vertex id " + std::string(field) + " is beyond the 2^32 - 2 this program handles");
    }
    if (ec != std::errc{} || end != field.data() + field.size()) {
        throw Error(where + ": vertex id '" + std::string(field) + "' is not a non-negative integer");
    }
    return static_cast<graph::Vertex>(value);
}

}  // namespace

EdgeListGraph read_edge_list(const std::string& path) {
    detail::TextLines lines(path);
    std::vector<std::pair<graph::Vertex, graph::Vertex>> edges;
    graph::Vertex vertices = 0;
    std::string_view line;
    while (lines.next(line)) {
        if (line.find_first_not_of(" \t,") == std::string_view::npos || line.front() == '#' || line.front() == '%') continue;
        const std::string where = path + " line " + std::to_string(lines.line_number());
        std::size_t at = 0;
        const std::string_view first = next_field(line, at);
        const std::string_view second = next_field(line, at);
        if (second.empty()) throw Error(where + ": expected two vertex ids, found one");
        const graph::Vertex a = parse_vertex(first, where);
        const graph::Vertex b = parse_vertex(second, where);
        vertices = std::max({vertices, static_cast<graph::Vertex>(a + 1), static_cast<graph::Vertex>(b + 1)});
        edges.emplace_back(a, b);
    }
    if (edges.empty()) throw Error(path + ": holds no edges");
    EdgeListGraph result;
    result.lines = edges.size();
    result.graph = graph::Graph::from_edges(vertices, edges, &result.cleanup);
    return result;
}

}  // namespace spikeminer::io
