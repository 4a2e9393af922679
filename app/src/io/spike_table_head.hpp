#pragma once
// The head of a spike table in text: which columns its header names, the tick its
// comments state, and unit tokens turned into neuron ids ("7.0" and "7" are one unit).
// Shared by the file reader and the live sources, which read the same lines.

#include "spike_table_rows.hpp"

#include "spikeminer/core/label_indexer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spikeminer::io::detail {

/// Whether the whole field is a number.
bool is_number(std::string_view s);

/// The unit and time columns a header names. Two columns that could each be the unit (or
/// the time) are refused, naming both; `where` ("FILE line 3") begins each message.
Columns columns_from_header(const std::vector<std::string_view>& fields, const std::string& where);

/// The tick a writer's comment states ("ticks_per_second=30000"), if it states one.
std::optional<std::int64_t> tick_from_comment(std::string_view line);

/// Hashes std::string and std::string_view alike, so that tokens are looked up unallocated.
struct TokenHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// Unit tokens joined across blocks in the table's order: the ids LabelIndexer gives, found
/// once per token.
class UnitIds {
public:
    explicit UnitIds(LabelIndexer& labels) : labels_(labels) {}
    NeuronId of(std::string_view token);

private:
    LabelIndexer& labels_;
    std::unordered_map<std::string, NeuronId, TokenHash, std::equal_to<>> ids_;
};

}  // namespace spikeminer::io::detail
