#pragma once
// Fields of edge-list and edge-stream lines: separated by spaces, tabs or commas.

#include "spikeminer/graph/graph.hpp"

#include <string>
#include <string_view>

namespace spikeminer::io::detail {

/// The next field of `line` from `at` (advanced past it), skipping separators; empty at
/// the end of the line.
std::string_view next_field(std::string_view line, std::size_t& at);

/// Whether a line holds nothing to read: blank (separators only) or a `#`/`%` comment.
bool is_blank_or_comment(std::string_view line);

/// A vertex id: a non-negative integer below 2^32 - 1. Throws Error prefixed with `where`.
graph::Vertex parse_vertex(std::string_view field, const std::string& where);

}  // namespace spikeminer::io::detail
