// See raster_figure.hpp.
#include "spikeminer/app/figures/raster_figure.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdio>

namespace spikeminer::figures {
namespace {

constexpr double kLeft = 70;          // room for the labels
constexpr double kTop = 40;           // room for the title
constexpr double kRight = 10;
constexpr double kBottom = 30;        // room for the time axis
constexpr double kWidth = 900;        // the spikes' width at the figure's own size
constexpr double kRow = 6;            // a row's height at its own size, down to what fits in kRows
constexpr double kRows = 3000;        // the rows' height at most, so that a PNG stays drawable
constexpr double kLabelledRow = 4;    // members' labels only in rows this high
constexpr double kLargestLabel = 10;  // points; a label is as high as its row up to this

std::string seconds_text(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", s);
    return text;
}

}  // namespace

Figure raster_figure(const SpikeTrains& trains, std::span<const std::vector<NeuronId>> assemblies, TimeSpan excerpt,
                     std::span<const mining::Occurrence> occurrences, std::optional<Size> size) {
    if (excerpt.length() <= 0) throw UsageError("the figure's time excerpt is empty");
    // Rows: assembly members first, in assembly order; then everyone else.
    const std::size_t n = trains.num_neurons();
    std::vector<int> group = first_assembly_of(n, assemblies);
    std::vector<NeuronId> rows;
    for (std::size_t a = 0; a < assemblies.size(); ++a) {
        for (const NeuronId member : assemblies[a]) {
            if (group[member] == static_cast<int>(a)) rows.push_back(member);
        }
    }
    for (NeuronId v = 0; v < n; ++v) {
        if (group[v] == -1) rows.push_back(v);
    }
    std::vector<std::size_t> row_of(n);
    for (std::size_t row = 0; row < rows.size(); ++row) row_of[rows[row]] = row;
    const double row_count = static_cast<double>(std::max<std::size_t>(rows.size(), 1));
    Figure figure;
    double row_height = std::min(kRow, kRows / row_count);
    if (size) {  // the rows share the height, the spikes the width
        figure.width = size->width;
        figure.height = size->height;
        row_height = std::max(0.0, size->height - kTop - kBottom) / row_count;
    } else {
        figure.width = kLeft + kWidth + kRight;
        figure.height = kTop + row_height * static_cast<double>(rows.size()) + kBottom;
    }
    const double width = std::max(1.0, figure.width - kLeft - kRight);
    const double label_size = std::min(row_height, kLargestLabel);
    figure.draw = [&trains, assemblies, excerpt, occurrences, row_height, width, label_size, group = std::move(group), rows = std::move(rows),
                   row_of = std::move(row_of)](Canvas& canvas) {
        const TimeBase& time_base = trains.time_base();
        const Colour black{0, 0, 0};
        char title[200];
        std::snprintf(title, sizeof title, "%zu assemblies; %.1f s of %zu neurons (assembly members at the top, in colour)%s",
                      assemblies.size(), time_base.to_seconds(excerpt.length()), trains.num_neurons(),
                      occurrences.empty() ? "" : "; black: the top episodes' occurrences");
        canvas.text({kLeft, 18}, title, 13, black, Anchor::Start);
        const auto times = trains.times();
        const auto x_of = [&](Tick t) { return kLeft + width * static_cast<double>(t - excerpt.start) / static_cast<double>(excerpt.length()); };
        for (std::size_t row = 0; row < rows.size(); ++row) {
            const NeuronId v = rows[row];
            const double y = kTop + row_height * static_cast<double>(row);
            const Colour colour = Colour::hex(group[v] == -1 ? kOtherNeuronColour : assembly_colour(static_cast<std::size_t>(group[v])));
            if (group[v] != -1 && row_height >= kLabelledRow) canvas.text({kLeft - 4, y + row_height - 1}, trains.label(v), label_size, black, Anchor::End);
            for (const std::uint32_t at : trains.spikes_of(v, excerpt)) {
                const Tick t = times[at];
                canvas.line({x_of(t), y}, {x_of(t), y + row_height * 5 / 6}, colour, 1);
            }
        }
        // Each occurrence inside the excerpt as a line through its spikes' ticks.
        const auto neurons = trains.neurons();
        for (const mining::Occurrence& occurrence : occurrences) {
            const auto outside = [&](std::uint32_t e) { return times[e] < excerpt.start || times[e] >= excerpt.end; };
            if (occurrence.events.empty() || std::any_of(occurrence.events.begin(), occurrence.events.end(), outside)) continue;
            for (std::size_t i = 1; i < occurrence.events.size(); ++i) {
                const std::uint32_t from = occurrence.events[i - 1], to = occurrence.events[i];
                const auto middle = [&](std::uint32_t e) { return kTop + row_height * (static_cast<double>(row_of[neurons[e]]) + 0.4); };
                canvas.line({x_of(times[from]), middle(from)}, {x_of(times[to]), middle(to)}, black, 0.7);
            }
        }
        const double axis = kTop + row_height * static_cast<double>(rows.size()) + 4;
        canvas.line({kLeft, axis}, {kLeft + width, axis}, black, 1);
        canvas.text({kLeft, axis + 14}, seconds_text(time_base.to_seconds(excerpt.start)), 10, black, Anchor::Start);
        canvas.text({kLeft + width, axis + 14}, seconds_text(time_base.to_seconds(excerpt.end)), 10, black, Anchor::End);
    };
    return figure;
}

TimeSpan opening(const SpikeTrains& trains, double seconds) {
    const TimeSpan span = trains.span();
    const Tick length = seconds >= trains.time_base().to_seconds(span.length()) ? span.length() : trains.time_base().from_seconds(seconds);
    return {span.start, span.start + std::max<Tick>(length, 1)};
}

}  // namespace spikeminer::figures
