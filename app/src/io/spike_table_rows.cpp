#include "spike_table_rows.hpp"

#include "recording.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <charconv>
#include <cstring>
#include <unordered_map>

namespace spikeminer::io::detail {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '"')) s.remove_suffix(1);
    return s;
}

}  // namespace

void split(std::string_view line, char delimiter, std::vector<std::string_view>& fields, std::size_t most) {
    fields.clear();
    if (delimiter == ',') {
        std::size_t start = 0;
        while (fields.size() < most) {
            const auto comma = line.find(',', start);
            fields.push_back(trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        return;
    }
    std::size_t i = 0;
    while (fields.size() < most) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i == line.size()) break;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        fields.push_back(line.substr(start, i - start));
    }
}

bool next_line(std::string_view& rest, std::string_view& line) {
    if (rest.empty()) return false;
    const auto newline = rest.find('\n');
    line = rest.substr(0, newline);
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
}

ParsedRows parse_rows(std::string_view block, char delimiter, const Columns& columns, const TimeBase& time_base) {
    ParsedRows rows;
    std::unordered_map<std::string_view, NeuronId> numbers;  // unit token -> its number in this block
    std::vector<std::string_view> fields;
    std::string_view line;
    const auto fail = [&](std::string failure) {
        rows.bad_line = rows.lines;
        rows.failure = std::move(failure);
    };
    while (next_line(block, line)) {
        ++rows.lines;
        if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
            fail(": holds a NUL byte: binary data, not text");
            break;
        }
        if (line.empty() || line.find_first_not_of(" \t") == std::string_view::npos) continue;
        if (line.front() == '#' || line.front() == '%') {
            if (line.starts_with(kNeuronTag)) rows.labels.push_back({line.substr(kNeuronTag.size()), true});
            continue;
        }
        split(line, delimiter, fields, columns.needed);
        if (fields.size() < columns.needed) {
            fail(": expected " + std::to_string(columns.needed) + " columns, found " + std::to_string(fields.size()) + " (" + in_quotes(line) + ")");
            break;
        }
        const std::string_view unit = fields[columns.unit];
        const std::string_view time_text = fields[columns.time];
        if (unit.empty()) {
            fail(": the unit field is empty");
            break;
        }
        double seconds = 0;
        const auto [end, ec] = std::from_chars(time_text.data(), time_text.data() + time_text.size(), seconds);
        if (ec != std::errc{} || end != time_text.data() + time_text.size()) {
            fail(": time " + in_quotes(time_text) + " is not a number");
            break;
        }
        try {
            rows.ticks.push_back(to_tick(time_base, seconds, [] { return std::string(); }));  // ": why"
        } catch (const Error& error) {
            fail(error.what());
            break;
        }
        const auto [known, added] = numbers.try_emplace(unit, static_cast<NeuronId>(numbers.size()));
        if (added) rows.labels.push_back({unit, false});
        rows.units.push_back(known->second);
    }
    return rows;
}

}  // namespace spikeminer::io::detail
