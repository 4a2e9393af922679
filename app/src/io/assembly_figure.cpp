// See assembly_figure.hpp.
#include "spikeminer/app/io/assembly_figure.hpp"

#include "svg_text.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace spikeminer::io {
namespace {

constexpr double kLeft = 70;   // room for the labels
constexpr double kTop = 40;    // room for the title
constexpr double kWidth = 900;
constexpr double kRow = 6;

std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", x);
    return text;
}

}  // namespace

void check_figure_path(const std::string& path) {
    if (!path.ends_with(".svg")) throw UsageError(path + ": the figure is written as .svg");
}

void write_assembly_figure(const std::string& path, const SpikeTrains& trains, std::span<const std::vector<NeuronId>> assemblies,
                           TimeSpan excerpt) {
    check_figure_path(path);
    if (excerpt.length() <= 0) throw UsageError("the figure's time excerpt is empty");
    // Rows: assembly members first, in assembly order; then everyone else.
    const std::size_t n = trains.num_neurons();
    const std::vector<int> group = first_assembly_of(n, assemblies);
    std::vector<NeuronId> rows;
    for (std::size_t a = 0; a < assemblies.size(); ++a) {
        for (const NeuronId member : assemblies[a]) {
            if (group[member] == static_cast<int>(a)) rows.push_back(member);
        }
    }
    for (NeuronId v = 0; v < n; ++v) {
        if (group[v] == -1) rows.push_back(v);
    }
    const double height = kTop + kRow * static_cast<double>(rows.size()) + 30;
    const TimeBase& time_base = trains.time_base();
    const double seconds = time_base.to_seconds(excerpt.length());
    write_atomically(path, [&](std::ostream& out) {
        out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(kLeft + kWidth + 10) << "\" height=\"" << number(height)
            << "\" font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
        out << "<text x=\"" << number(kLeft) << "\" y=\"18\" font-size=\"13\">" << assemblies.size() << " assemblies; " << number(seconds)
            << " s of " << n << " neurons (assembly members at the top, in colour)</text>\n";
        for (std::size_t row = 0; row < rows.size(); ++row) {
            const NeuronId v = rows[row];
            const double y = kTop + kRow * static_cast<double>(row);
            const char* colour = group[v] == -1 ? kOtherNeuronColour : assembly_colour(static_cast<std::size_t>(group[v]));
            if (group[v] != -1) {
                out << "<text x=\"" << number(kLeft - 4) << "\" y=\"" << number(y + kRow - 1) << "\" text-anchor=\"end\" font-size=\"6\">"
                    << detail::xml_escaped(trains.label(v)) << "</text>\n";
            }
            out << "<path stroke=\"" << colour << "\" stroke-width=\"1\" d=\"";
            const auto times = trains.times();
            for (const std::uint32_t at : trains.spikes_of(v)) {
                const Tick t = times[at];
                if (t < excerpt.start || t >= excerpt.end) continue;
                const double x = kLeft + kWidth * static_cast<double>(t - excerpt.start) / static_cast<double>(excerpt.length());
                out << "M" << number(x) << " " << number(y) << "v" << number(kRow - 1);
            }
            out << "\"/>\n";
        }
        const double axis = kTop + kRow * static_cast<double>(rows.size()) + 4;
        out << "<line x1=\"" << number(kLeft) << "\" x2=\"" << number(kLeft + kWidth) << "\" y1=\"" << number(axis) << "\" y2=\""
            << number(axis) << "\" stroke=\"black\"/>\n";
        out << "<text x=\"" << number(kLeft) << "\" y=\"" << number(axis + 14) << "\">" << number(time_base.to_seconds(excerpt.start)) << " s</text>\n";
        out << "<text x=\"" << number(kLeft + kWidth) << "\" y=\"" << number(axis + 14) << "\" text-anchor=\"end\">"
            << number(time_base.to_seconds(excerpt.end)) << " s</text>\n</svg>\n";
    });
}

}  // namespace spikeminer::io
