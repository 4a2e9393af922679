#pragma once
// The rows of a spike table in text (CSV or whitespace-separated), parsed block by block:
// the columns, a line's fields, and a block of whole lines turned into ticks and unit
// tokens, so that blocks can be parsed side by side and joined in the file's order.

#include "spikeminer/core/spike_trains.hpp"

#include <cstdint>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace spikeminer::io::detail {

inline constexpr std::string_view kNeuronTag = "# neuron: ";

/// Which fields hold the unit and the time.
struct Columns {
    std::size_t unit = 0;
    std::size_t time = 1;
    std::size_t needed = 2;
};

/// Splits on the delimiter (',' for CSV) or on runs of blanks (' ' for text) into `fields`
/// (replaced), the first `most` fields at most (a row needs only those up to its columns).
void split(std::string_view line, char delimiter, std::vector<std::string_view>& fields, std::size_t most = SIZE_MAX);

/// The next line of `rest`, without its "\n" or "\r\n"; false when none is left.
bool next_line(std::string_view& rest, std::string_view& line);

/// What a block of whole lines holds, its units told apart by their text.
struct ParsedRows {
    std::vector<Tick> ticks;
    std::vector<NeuronId> units;  ///< per spike, the unit's number in this block (order of first appearance)
    /// In file order: each unit token at its first appearance in the block, and each
    /// "# neuron: " comment's label (which names a neuron that may never fire).
    struct Label {
        std::string_view text;
        bool from_comment = false;
    };
    std::vector<Label> labels;
    std::uint64_t lines = 0;
    /// The first bad line (1-based within the block, 0 when none) and what is wrong with
    /// it, to follow "FILE line N".
    std::uint64_t bad_line = 0;
    std::string failure;
};

/// Parses the block's lines as spike rows (comments and blank lines skipped); stops at the
/// first bad line. The labels' texts point into `block`.
ParsedRows parse_rows(std::string_view block, char delimiter, const Columns& columns, const TimeBase& time_base);

}  // namespace spikeminer::io::detail
