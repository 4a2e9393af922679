#include "edge_fields.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <charconv>
#include <cstdint>

namespace spikeminer::io::detail {
namespace {

bool is_separator(char c) { return c == ' ' || c == '\t' || c == ','; }

}  // namespace

std::string_view next_field(std::string_view line, std::size_t& at) {
    while (at < line.size() && is_separator(line[at])) ++at;
    const std::size_t start = at;
    while (at < line.size() && !is_separator(line[at])) ++at;
    return line.substr(start, at - start);
}

bool is_blank_or_comment(std::string_view line) {
    return line.find_first_not_of(" \t,") == std::string_view::npos || line.front() == '#' || line.front() == '%';
}

graph::Vertex parse_vertex(std::string_view field, const std::string& where) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc{} && value >= (std::uint64_t{1} << 32) - 1)) {
        throw Error(where + ": vertex id " + in_quotes(field) + " is beyond the 2^32 - 2 this program handles");
    }
    if (ec != std::errc{} || end != field.data() + field.size()) {
        throw Error(where + ": vertex id " + in_quotes(field) + " is not a non-negative integer");
    }
    return static_cast<graph::Vertex>(value);
}

}  // namespace spikeminer::io::detail
