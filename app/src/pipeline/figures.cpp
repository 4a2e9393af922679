// See figures.hpp.
#include "figures.hpp"

#include "../io/svg_text.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/io/atomic_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <ostream>
#include <set>

namespace spikeminer::pipeline::detail {
namespace {

std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", x);
    return text;
}

void open_svg(std::ostream& out, double width, double height, const std::string& title) {
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\"" << number(height)
        << "\" font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"10\" y=\"18\" font-size=\"13\">" << io::detail::xml_escaped(title) << "</text>\n";
}

// The neuron pairs joined in window `w`: the edge changes replayed up to it.
std::set<std::pair<NeuronId, NeuronId>> edges_at(const PipelineResult& result, std::size_t w) {
    std::set<std::pair<NeuronId, NeuronId>> edges;
    for (const EdgeChange& c : result.changes) {
        if (c.window > w) break;
        if (c.kind == EdgeChange::Kind::Inserted) edges.emplace(c.a, c.b);
        if (c.kind == EdgeChange::Kind::Erased) edges.erase({c.a, c.b});
    }
    return edges;
}

}  // namespace

void write_timeline_figure(const std::string& path, const SpikeTrains& trains, const PipelineResult& result) {
    constexpr double kLeft = 110, kTop = 40, kWidth = 860, kRow = 16;
    const TimeBase& tb = trains.time_base();
    const Tick from = result.windows.empty() ? 0 : result.windows.front().span.start;
    const Tick to = result.windows.empty() ? 1 : std::max(result.windows.back().span.end, from + 1);
    const auto x = [&](Tick t) { return kLeft + kWidth * static_cast<double>(t - from) / static_cast<double>(to - from); };
    const auto centre = [&](std::size_t w) { return (result.windows[w].span.start + result.windows[w].span.end) / 2; };
    const Tick half_step = result.windows.size() > 1 ? (centre(1) - centre(0)) / 2 : (to - from) / 2;
    const double height = kTop + kRow * static_cast<double>(result.assemblies.size()) + 40;
    io::write_atomically(path, [&](std::ostream& out) {
        open_svg(out, kLeft + kWidth + 20, height,
                 std::to_string(result.assemblies.size()) + " assemblies through time (bars: windows where each is a clique; ticks: its activations)");
        for (std::size_t a = 0; a < result.assemblies.size(); ++a) {
            const Assembly& assembly = result.assemblies[a];
            const double y = kTop + kRow * static_cast<double>(a);
            const char* colour = assembly_colour(a);
            out << "<text x=\"" << number(kLeft - 6) << "\" y=\"" << number(y + 10) << "\" text-anchor=\"end\">assembly " << assembly.track.id
                << " (" << assembly.members.size() << ")</text>\n";
            const auto& windows = assembly.track.windows;
            for (std::size_t i = 0; i < windows.size();) {
                std::size_t j = i;
                while (j + 1 < windows.size() && windows[j + 1] == windows[j] + 1) ++j;
                const double x0 = x(centre(windows[i]) - half_step);
                const double x1 = x(centre(windows[j]) + half_step);
                out << "<rect x=\"" << number(x0) << "\" y=\"" << number(y + 2) << "\" width=\"" << number(std::max(1.0, x1 - x0))
                    << "\" height=\"8\" fill=\"" << colour << "\" fill-opacity=\"0.6\"/>\n";
                i = j + 1;
            }
            out << "<path stroke=\"" << colour << "\" stroke-width=\"0.6\" d=\"";
            for (const Tick t : assembly.activations) out << "M" << number(x(t)) << " " << number(y + 10) << "v4";
            out << "\"/>\n";
        }
        const double axis = kTop + kRow * static_cast<double>(result.assemblies.size()) + 6;
        out << "<line x1=\"" << number(kLeft) << "\" x2=\"" << number(kLeft + kWidth) << "\" y1=\"" << number(axis) << "\" y2=\""
            << number(axis) << "\" stroke=\"black\"/>\n";
        out << "<text x=\"" << number(kLeft) << "\" y=\"" << number(axis + 14) << "\">" << number(tb.to_seconds(from)) << " s</text>\n";
        out << "<text x=\"" << number(kLeft + kWidth) << "\" y=\"" << number(axis + 14) << "\" text-anchor=\"end\">" << number(tb.to_seconds(to))
            << " s</text>\n</svg>\n";
    });
}

void write_graph_figure(const std::string& path, const SpikeTrains& trains, const PipelineResult& result) {
    constexpr double kSize = 700, kRadius = 280;
    std::size_t busiest = 0;
    for (std::size_t w = 0; w < result.windows.size(); ++w) {
        if (result.windows[w].edges > result.windows[busiest].edges) busiest = w;
    }
    const auto edges = result.windows.empty() ? std::set<std::pair<NeuronId, NeuronId>>{} : edges_at(result, busiest);
    // The neurons of the graph: the window's cliques in their assemblies' colours (as in the
    // timeline; grey for cliques of no reported assembly), each together, then the rest.
    std::vector<std::vector<NeuronId>> cliques;
    std::vector<int> colour_of;  // per clique: its assembly's place in result.assemblies, or -1
    if (!result.windows.empty()) {
        const WindowSummary& w = result.windows[busiest];
        for (std::size_t c = 0; c < w.cliques.size(); ++c) {
            cliques.push_back(w.cliques[c]);
            const auto at = std::find_if(result.assemblies.begin(), result.assemblies.end(),
                                         [&](const Assembly& a) { return a.track.id == w.assemblies[c]; });
            colour_of.push_back(at == result.assemblies.end() ? -1 : static_cast<int>(at - result.assemblies.begin()));
        }
    }
    const std::vector<int> group = first_assembly_of(trains.num_neurons(), cliques);
    std::vector<NeuronId> order;
    for (std::size_t a = 0; a < cliques.size(); ++a) {
        for (const NeuronId n : cliques[a]) {
            if (group[n] == static_cast<int>(a)) order.push_back(n);
        }
    }
    std::set<NeuronId> rest;
    for (const auto& [a, b] : edges) {
        for (const NeuronId n : {a, b}) {
            if (group[n] == -1) rest.insert(n);
        }
    }
    order.insert(order.end(), rest.begin(), rest.end());
    std::vector<std::pair<double, double>> at(trains.num_neurons());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const double angle = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(order.size(), 1));
        at[order[i]] = {kSize / 2 + kRadius * std::cos(angle), kSize / 2 + 20 + kRadius * std::sin(angle)};
    }
    const TimeBase& tb = trains.time_base();
    const std::string title = result.windows.empty()
                                  ? std::string("no windows")
                                  : "co-firing graph of window " + std::to_string(busiest) + " (" + number(tb.to_seconds(result.windows[busiest].span.start)) +
                                        "-" + number(tb.to_seconds(result.windows[busiest].span.end)) + " s): " + std::to_string(edges.size()) +
                                        " edges, cliques in their assemblies' colours";
    io::write_atomically(path, [&](std::ostream& out) {
        open_svg(out, kSize, kSize + 40, title);
        out << "<path stroke=\"#888888\" stroke-width=\"0.5\" d=\"";
        for (const auto& [a, b] : edges) out << "M" << number(at[a].first) << " " << number(at[a].second) << "L" << number(at[b].first) << " " << number(at[b].second);
        out << "\"/>\n";
        for (const NeuronId n : order) {
            const int assembly = group[n] == -1 ? -1 : colour_of[static_cast<std::size_t>(group[n])];
            const char* colour = assembly == -1 ? kOtherNeuronColour : assembly_colour(static_cast<std::size_t>(assembly));
            out << "<circle cx=\"" << number(at[n].first) << "\" cy=\"" << number(at[n].second) << "\" r=\"4\" fill=\"" << colour << "\"/>\n";
            out << "<text x=\"" << number(at[n].first + 5) << "\" y=\"" << number(at[n].second - 5) << "\" font-size=\"7\">"
                << io::detail::xml_escaped(trains.label(n)) << "</text>\n";
        }
        out << "</svg>\n";
    });
}

}  // namespace spikeminer::pipeline::detail
