// See spike_table_head.hpp.
#include "spike_table_head.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace spikeminer::io::detail {
namespace {

constexpr std::string_view kTickTag = "ticks_per_second=";

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

constexpr std::array kUnitNames{"unit", "units", "unit_id", "neuron", "neuron_id", "id", "cluster", "cluster_id",
                                "cell", "cell_id", "channel"};
constexpr std::array kTimeNames{"time_s", "time", "times", "t", "spike_time", "spike_times", "timestamp",
                                "seconds"};

// Column i (from 0) as a person counts it, with its name.
std::string column_named(const std::vector<std::string_view>& fields, std::size_t i) {
    return "column " + std::to_string(i + 1) + " " + in_quotes(fields[i]);
}

}  // namespace

bool is_number(std::string_view s) {
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc{} && end == s.data() + s.size();
}

// The unit and time columns the header names. Two columns that could each be the unit (or
// the time) are refused, naming both: the first would be taken silently otherwise. A
// `channel` beside another unit column is the electrode, not the unit.
Columns columns_from_header(const std::vector<std::string_view>& fields, const std::string& where) {
    constexpr std::size_t none = SIZE_MAX;
    const auto one_of = [](const auto& names, const std::string& name) { return std::find(names.begin(), names.end(), name) != names.end(); };
    std::vector<std::size_t> units;
    std::vector<std::size_t> times;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name = lower(fields[i]);
        if (one_of(kUnitNames, name)) {
            units.push_back(i);
        } else if (one_of(kTimeNames, name)) {
            times.push_back(i);
        } else if (name.starts_with("time_") || name.starts_with("t_")) {
            throw Error(where + ": " + column_named(fields, i) +
                        " does not hold seconds; spike times must be given in seconds (name the column time_s)");
        }
    }
    if (std::count_if(units.begin(), units.end(), [&](std::size_t i) { return lower(fields[i]) != "channel"; }) > 0) {
        std::erase_if(units, [&](std::size_t i) { return lower(fields[i]) == "channel"; });
    }
    for (const auto& [found, what] : {std::pair(&units, "the unit"), std::pair(&times, "the spike times")}) {
        if (found->size() > 1) {
            throw Error(where + ": " + column_named(fields, (*found)[0]) + " and " + column_named(fields, (*found)[1]) + " could each be " +
                        what + "; rename or remove one of them");
        }
    }
    Columns columns{units.empty() ? none : units.front(), times.empty() ? none : times.front(), 0};
    if (columns.unit == none || columns.time == none) {
        throw Error(where + ": the header names no " + std::string(columns.unit == none ? "unit" : "time") +
                    " column; expected a header such as 'unit,time_s' (unit column: unit, neuron, id, cluster, "
                    "cell or channel; time column in seconds: time_s, time, t or spike_time)");
    }
    columns.needed = std::max(columns.unit, columns.time) + 1;
    return columns;
}

std::optional<std::int64_t> tick_from_comment(std::string_view line) {
    const auto at = line.find(kTickTag);
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view digits = line.substr(at + kTickTag.size());
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || value <= 0) return std::nullopt;
    return value;
}

NeuronId UnitIds::of(std::string_view token) {
    if (const auto known = ids_.find(token); known != ids_.end()) return known->second;
    const std::string canonical = canonical_integer_label(token);
    const NeuronId id = labels_.intern(canonical.empty() ? token : std::string_view(canonical));
    ids_.emplace(std::string(token), id);
    return id;
}

}  // namespace spikeminer::io::detail
