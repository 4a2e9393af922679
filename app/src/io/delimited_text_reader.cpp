// Reader for spike tables in text: CSV with a header (`unit,time_s`) and two-column
// whitespace files (`id time_s`), plain or gzip-compressed.
#include "recording.hpp"
#include "spike_table_head.hpp"
#include "spike_table_rows.hpp"
#include "text_blocks.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/label_indexer.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <unordered_map>

namespace spikeminer::io::detail {
namespace {

std::string block_failure(const std::string& path, const TextBlocks::Block& block, std::uint64_t lines) {
    switch (block.failure) {
        case TextBlocks::Block::Failure::LongLine:
            return path + " line " + std::to_string(lines + 1) + ": longer than " + std::to_string(TextBlocks::kLongestLineMiB) +
                   " MiB: not a table of spikes or edges";
        case TextBlocks::Block::Failure::Truncated:
            return path + ": the gzip stream ends early (truncated file) after line " + std::to_string(lines);
        default:
            return path + ": cannot be read: " + block.message;
    }
}

}  // namespace

Recording read_delimited_text(const std::string& path, char delimiter, std::optional<TimeBase> time_base,
                              Progress* progress) {
    TextBlocks blocks(path);
    if (blocks.file_size() == 0) throw Error(path + ": the file is empty");
    if (progress != nullptr) progress->begin("reading " + path, blocks.file_size());

    // The header, the comments before it and the tick they may state, line by line up to
    // the first row of spikes.
    LabelIndexer labels;
    std::vector<std::string_view> fields;
    std::optional<Columns> columns;
    bool written_here = false;  // the file starts with the writer's line
    std::uint64_t lines = 0;
    TextBlocks::Block block;
    std::string_view rest;  // what is left of `block` to parse as rows
    bool more = true;
    while (!columns && (more = blocks.next(block))) {
        if (block.failure != TextBlocks::Block::Failure::None) throw Error(block_failure(path, block, lines));
        rest = block.lines();
        if (lines == 0 && rest.starts_with("\xEF\xBB\xBF")) rest.remove_prefix(3);  // UTF-8 byte-order mark
        std::string_view line;
        for (std::string_view at = rest; !columns && next_line(at, line); rest = at) {
            if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
                throw Error(path + " line " + std::to_string(lines + 1) + ": holds a NUL byte: binary data, not text");
            }
            if (line.empty() || line.find_first_not_of(" \t") == std::string_view::npos) {
                ++lines;
                continue;
            }
            if (line.front() == '#' || line.front() == '%') {
                // The writer's comments carry the tick and the neurons in order (silent ones too).
                if (!time_base) {
                    if (const auto tick = tick_from_comment(line)) time_base = TimeBase{*tick};
                }
                written_here = written_here || line.starts_with(kWriterLine);
                if (line.starts_with(kNeuronTag)) labels.intern(line.substr(kNeuronTag.size()));
                ++lines;
                continue;
            }
            if (!time_base) time_base = TimeBase{};
            split(line, delimiter, fields);
            if (fields.size() >= 2 && is_number(fields[1])) {
                columns = Columns{};  // no header: this line is the first row
                break;
            }
            ++lines;
            columns = columns_from_header(fields, path + " line " + std::to_string(lines));
            rest = at;
        }
    }
    if (!time_base) time_base = TimeBase{};

    // The rows, a batch of blocks at a time parsed side by side (while the next batch is
    // read), joined in the file's order.
    UninitializedVector<Tick> ticks;
    UninitializedVector<NeuronId> ids;
    UnitIds unit_ids(labels);
    // On a machine of a few cores one is left to the thread that reads and inflates.
    const int cores = std::max(omp_get_max_threads(), 1);
    const int parsers = cores > 4 ? cores : std::max(cores - 1, 1);
    const auto batch_size = static_cast<std::size_t>(parsers);
    std::vector<TextBlocks::Block> batch;
    std::optional<TextBlocks::Block> stop;  // a failure after the batch
    if (columns && !rest.empty()) batch.push_back({UninitializedVector<char>(rest.begin(), rest.end()), 0, TextBlocks::Block::Failure::None, {}});
    while (more || !batch.empty()) {
        while (more && batch.size() < batch_size) {
            if (!(more = blocks.next(block))) break;
            if (block.failure != TextBlocks::Block::Failure::None) {
                stop = std::move(block);
                more = false;
                break;
            }
            batch.push_back(std::move(block));
        }
        std::vector<ParsedRows> parsed(batch.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(parsers)
        for (std::size_t b = 0; b < batch.size(); ++b) {
            parsed[b] = parse_rows(batch[b].lines(), delimiter, *columns, *time_base);
        }
        std::vector<std::size_t> starts{ticks.size()};
        std::vector<std::vector<NeuronId>> to_id(parsed.size());
        for (std::size_t b = 0; b < parsed.size(); ++b) {
            const ParsedRows& rows = parsed[b];
            for (const ParsedRows::Label& label : rows.labels) {
                if (label.from_comment) labels.intern(label.text);
                else to_id[b].push_back(unit_ids.of(label.text));
            }
            if (rows.bad_line != 0) throw Error(path + " line " + std::to_string(lines + rows.bad_line) + rows.failure);
            lines += rows.lines;
            starts.push_back(starts.back() + rows.ticks.size());
        }
        ticks.resize(starts.back());
        ids.resize(starts.back());
#pragma omp parallel for schedule(dynamic, 1)
        for (std::size_t b = 0; b < parsed.size(); ++b) {
            std::copy(parsed[b].ticks.begin(), parsed[b].ticks.end(), ticks.begin() + static_cast<std::ptrdiff_t>(starts[b]));
            for (std::size_t i = 0; i < parsed[b].units.size(); ++i) ids[starts[b] + i] = to_id[b][parsed[b].units[i]];
        }
        batch.clear();
        if (stop) throw Error(block_failure(path, *stop, lines));
        if (progress != nullptr) progress->update(blocks.bytes_consumed());
    }
    // A header and no rows, or the writer's first line alone, is a recording without spikes,
    // as the writers write one.
    if (labels.size() == 0 && !columns && !written_here) throw Error(path + ": holds no spikes (only comments or blank lines)");

    Recording recording;
    auto [final_labels, remap] = labels.finish();
    for (NeuronId& id : ids) id = remap[id];
    recording.spikes = SpikeColumns::own(std::move(ticks), std::move(ids));
    recording.neurons.labels = std::move(final_labels);
    recording.time_base = *time_base;
    if (progress != nullptr) progress->finish();
    return recording;
}

}  // namespace spikeminer::io::detail
