// Reader for spike tables in text: CSV with a header (`unit,time_s`) and two-column
// whitespace files (`id time_s`), plain or gzip-compressed.
#include "recording.hpp"
#include "text_lines.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/label_indexer.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <unordered_map>

namespace spikeminer::io::detail {
namespace {

constexpr std::size_t kMaxColumns = 64;
constexpr std::string_view kTickTag = "ticks_per_second=";
constexpr std::string_view kNeuronTag = "# neuron: ";

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '"')) s.remove_suffix(1);
    return s;
}

// Splits on the delimiter (',' for CSV) or on runs of blanks (' ' for text).
std::size_t split(std::string_view line, char delimiter, std::array<std::string_view, kMaxColumns>& fields) {
    std::size_t count = 0;
    if (delimiter == ',') {
        std::size_t start = 0;
        while (count < kMaxColumns) {
            const auto comma = line.find(',', start);
            fields[count++] = trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        return count;
    }
    std::size_t i = 0;
    while (count < kMaxColumns) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        if (i == line.size()) break;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        fields[count++] = line.substr(start, i - start);
    }
    return count;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool is_number(std::string_view s) {
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc{} && end == s.data() + s.size();
}

// Hashes std::string and std::string_view alike, so that tokens are looked up unallocated.
struct TokenHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

constexpr std::array kUnitNames{"unit", "units", "unit_id", "neuron", "neuron_id", "id", "cluster", "cluster_id",
                                "cell", "cell_id", "channel"};
constexpr std::array kTimeNames{"time_s", "time", "times", "t", "spike_time", "spike_times", "timestamp",
                                "seconds"};

struct Columns {
    std::size_t unit = 0;
    std::size_t time = 1;
    std::size_t needed = 2;
};

Columns columns_from_header(const std::array<std::string_view, kMaxColumns>& fields, std::size_t count,
                            const std::string& where) {
    constexpr std::size_t none = kMaxColumns;
    Columns columns{none, none, 0};
    for (std::size_t i = 0; i < count; ++i) {
        const std::string name = lower(fields[i]);
        if (columns.unit == none && std::find(kUnitNames.begin(), kUnitNames.end(), name) != kUnitNames.end()) {
            columns.unit = i;
        } else if (columns.time == none &&
                   std::find(kTimeNames.begin(), kTimeNames.end(), name) != kTimeNames.end()) {
            columns.time = i;
        } else if (name.starts_with("time_") || name.starts_with("t_")) {
            throw Error(where + ": column " + in_quotes(fields[i]) +
                        " does not hold seconds; spike times must be given in seconds (name the column time_s)");
        }
    }
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

}  // namespace

Recording read_delimited_text(const std::string& path, char delimiter, std::optional<TimeBase> time_base,
                              Progress* progress) {
    TextLines lines(path);
    if (lines.file_size() == 0) throw Error(path + ": the file is empty");
    if (progress != nullptr) progress->begin("reading " + path, lines.file_size());

    Recording recording;
    std::vector<Tick> ticks;
    std::vector<NeuronId> ids;
    LabelIndexer labels;
    std::array<std::string_view, kMaxColumns> fields{};
    std::optional<Columns> columns;
    std::unordered_map<std::string, NeuronId, TokenHash, std::equal_to<>> raw_ids;  // unit token -> id
    std::string_view line;
    const auto where = [&] { return path + " line " + std::to_string(lines.line_number()); };

    while (lines.next(line)) {
        if (line.empty() || line.find_first_not_of(" \t") == std::string_view::npos) continue;
        if (line.front() == '#' || line.front() == '%') {
            // The writer's comments carry the tick and the neurons in order (silent ones too).
            if (!columns && !time_base) {
                if (const auto tick = tick_from_comment(line)) time_base = TimeBase{*tick};
            }
            if (line.starts_with(kNeuronTag)) labels.intern(line.substr(kNeuronTag.size()));
            continue;
        }
        const std::size_t count = split(line, delimiter, fields);
        if (!columns) {
            if (!time_base) time_base = TimeBase{};
            if (count >= 2 && is_number(fields[1])) {  // a header names the time column
                columns = Columns{};
            } else {
                columns = columns_from_header(fields, count, where());
                continue;
            }
        }
        if (count < columns->needed) {
            throw Error(where() + ": expected " + std::to_string(columns->needed) + " columns, found " +
                        std::to_string(count) + " (" + in_quotes(line) + ")");
        }
        const std::string_view unit = fields[columns->unit];
        const std::string_view time_text = fields[columns->time];
        if (unit.empty()) throw Error(where() + ": the unit field is empty");
        double seconds = 0;
        const auto [end, ec] = std::from_chars(time_text.data(), time_text.data() + time_text.size(), seconds);
        if (ec != std::errc{} || end != time_text.data() + time_text.size()) {
            throw Error(where() + ": time " + in_quotes(time_text) + " is not a number");
        }
        NeuronId id = 0;
        if (const auto known = raw_ids.find(unit); known != raw_ids.end()) {
            id = known->second;
        } else {  // first time this token is seen: canonicalize once ("7.0" and "7" are one unit)
            const std::string canonical = canonical_integer_label(unit);
            id = labels.intern(canonical.empty() ? unit : std::string_view(canonical));
            raw_ids.emplace(std::string(unit), id);
        }
        ticks.push_back(to_tick(*time_base, seconds, where));
        ids.push_back(id);
        if (progress != nullptr && (lines.line_number() & 0xFFFF) == 0) progress->update(lines.bytes_consumed());
    }
    if (labels.size() == 0) {
        throw Error(path + (columns ? ": holds a header but no spikes" : ": holds no spikes (only comments or blank lines)"));
    }
    if (!time_base) time_base = TimeBase{};

    auto [final_labels, remap] = labels.finish();
    for (NeuronId& id : ids) id = remap[id];
    recording.spikes = SpikeColumns::own(std::move(ticks), std::move(ids));
    recording.neurons.labels = std::move(final_labels);
    recording.time_base = *time_base;
    if (progress != nullptr) progress->finish();
    return recording;
}

}  // namespace spikeminer::io::detail
