// See run_figures.hpp.
#include "spikeminer/app/pipeline/run_figures.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/figures/graph_layout.hpp"
#include "spikeminer/app/pipeline/window_edges.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace spikeminer::pipeline {
namespace {

using figures::Anchor;
using figures::Canvas;
using figures::Colour;

const Colour kBlack{0, 0, 0};

std::string format(const char* pattern, double x) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, x);
    return text;
}

}  // namespace

figures::Figure timeline_figure(const SpikeTrains& trains, const PipelineResult& result) {
    constexpr double kLeft = 110, kTop = 40, kWidth = 860, kRow = 16;
    constexpr std::size_t kMostRows = 200;  // the first assemblies to appear, so that a PNG stays drawable
    const std::size_t shown = std::min(result.assemblies.size(), kMostRows);
    figures::Figure figure;
    figure.width = kLeft + kWidth + 20;
    figure.height = kTop + kRow * static_cast<double>(shown) + 40;
    figure.draw = [&trains, &result, shown](Canvas& canvas) {
        const TimeBase& tb = trains.time_base();
        const Tick from = result.windows.empty() ? 0 : result.windows.front().span.start;
        const Tick to = result.windows.empty() ? 1 : std::max(result.windows.back().span.end, from + 1);
        const auto x = [&](Tick t) { return kLeft + kWidth * static_cast<double>(t - from) / static_cast<double>(to - from); };
        const auto centre = [&](std::size_t w) { return (result.windows[w].span.start + result.windows[w].span.end) / 2; };
        const Tick half_step = result.windows.size() > 1 ? (centre(1) - centre(0)) / 2 : (to - from) / 2;
        const std::string count = shown < result.assemblies.size()
                                      ? "the first " + std::to_string(shown) + " of " + std::to_string(result.assemblies.size()) + " assemblies"
                                      : std::to_string(shown) + " assemblies";
        canvas.text({10, 18}, count + " through time (bars: windows where each is a clique; ticks: its activations)", 13, kBlack, Anchor::Start);
        for (std::size_t a = 0; a < shown; ++a) {
            const Assembly& assembly = result.assemblies[a];
            const double y = kTop + kRow * static_cast<double>(a);
            canvas.text({kLeft - 6, y + 10}, "assembly " + std::to_string(assembly.track.id) + " (" + std::to_string(assembly.members.size()) + ")", 10,
                        kBlack, Anchor::End);
            const auto& windows = assembly.track.windows;
            for (std::size_t i = 0; i < windows.size();) {
                std::size_t j = i;
                while (j + 1 < windows.size() && windows[j + 1] == windows[j] + 1) ++j;
                const double x0 = x(centre(windows[i]) - half_step);
                const double x1 = x(centre(windows[j]) + half_step);
                canvas.rect({x0, y + 2}, std::max(1.0, x1 - x0), 8, Colour::hex(assembly_colour(a), 0.6));
                i = j + 1;
            }
            for (const Tick t : assembly.activations) canvas.line({x(t), y + 10}, {x(t), y + 14}, Colour::hex(assembly_colour(a)), 0.6);
        }
        const double axis = kTop + kRow * static_cast<double>(shown) + 6;
        canvas.line({kLeft, axis}, {kLeft + kWidth, axis}, kBlack, 1);
        canvas.text({kLeft, axis + 14}, format("%.1f s", tb.to_seconds(from)), 10, kBlack, Anchor::Start);
        canvas.text({kLeft + kWidth, axis + 14}, format("%.1f s", tb.to_seconds(to)), 10, kBlack, Anchor::End);
    };
    return figure;
}

figures::Figure graph_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<std::size_t> window) {
    constexpr double kSize = 700, kMargin = 30, kTop = 40;
    std::size_t shown = 0;  // the window asked for, else the busiest
    if (window && *window < result.windows.size()) {
        shown = *window;
    } else {
        for (std::size_t w = 0; w < result.windows.size(); ++w) {
            if (result.windows[w].edges > result.windows[shown].edges) shown = w;
        }
    }
    const std::vector<WindowEdge> edges = result.windows.empty() ? std::vector<WindowEdge>{} : WindowEdges(result.changes, result.windows.size()).at(shown);
    // Each neuron's colour: that of the first of the window's cliques holding it (the
    // clique's assembly's, grey for a clique of no reported assembly), else light grey.
    std::vector<std::vector<NeuronId>> cliques;
    std::vector<Colour> clique_colour;
    if (!result.windows.empty()) {
        const WindowSummary& w = result.windows[shown];
        for (std::size_t c = 0; c < w.cliques.size(); ++c) {
            cliques.push_back(w.cliques[c]);
            const auto at = std::find_if(result.assemblies.begin(), result.assemblies.end(),
                                         [&](const Assembly& a) { return a.track.id == w.assemblies[c]; });
            clique_colour.push_back(Colour::hex(at == result.assemblies.end() ? kUnreportedCliqueColour : assembly_colour(static_cast<std::size_t>(at - result.assemblies.begin()))));
        }
    }
    std::vector<int> group = first_assembly_of(trains.num_neurons(), cliques);
    // The drawn neurons, numbered 0.. for the layout.
    std::map<NeuronId, std::uint32_t> index;
    for (const WindowEdge& e : edges) index.emplace(e.a, 0), index.emplace(e.b, 0);
    std::vector<NeuronId> neurons;
    for (auto& [neuron, i] : index) i = static_cast<std::uint32_t>(neurons.size()), neurons.push_back(neuron);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local;
    for (const WindowEdge& e : edges) local.emplace_back(index[e.a], index[e.b]);
    // At their electrodes when the file places them, else where Graphviz's layout puts them.
    const std::vector<Position>& sites = trains.neuron_table().positions;
    std::vector<figures::Point> at;
    if (sites.empty()) {
        at = figures::spring_layout(neurons.size(), local);
    } else {
        const std::vector<figures::Point> array = figures::electrode_layout(sites);  // the whole array's plane
        for (const NeuronId n : neurons) at.push_back(array[n]);
    }
    for (figures::Point& p : at) p = {kMargin + p.x * (kSize - 2 * kMargin), kTop + kMargin + p.y * (kSize - 2 * kMargin)};

    std::string title = "no windows";
    if (!result.windows.empty()) {
        const TimeBase& tb = trains.time_base();
        title = "co-firing graph of window " + std::to_string(shown) + " (" + format("%.1f", tb.to_seconds(result.windows[shown].span.start)) + "-" +
                format("%.1f s): ", tb.to_seconds(result.windows[shown].span.end)) + std::to_string(edges.size()) +
                " edges";
    }
    figures::Figure figure;
    figure.width = kSize;
    figure.height = kSize + kTop;
    std::string subtitle = std::string("cliques in their assemblies' colours; ") +
                           (sites.empty() ? "laid out by Graphviz (neato)" : "neurons at their electrodes");
    figure.draw = [&trains, title = std::move(title), subtitle = std::move(subtitle), group = std::move(group), clique_colour = std::move(clique_colour), neurons = std::move(neurons),
                   local = std::move(local), at = std::move(at)](Canvas& canvas) {
        canvas.text({10, 18}, title, 13, kBlack, Anchor::Start);
        canvas.text({10, 34}, subtitle, 10, kBlack, Anchor::Start);
        const Colour edge{0.55, 0.55, 0.55, 0.7};
        for (const auto& [a, b] : local) canvas.line(at[a], at[b], edge, 0.5);
        for (std::size_t i = 0; i < neurons.size(); ++i) {
            const int g = group[neurons[i]];
            canvas.circle(at[i], 4, g == -1 ? Colour::hex(kOtherNeuronColour) : clique_colour[static_cast<std::size_t>(g)]);
            canvas.text({at[i].x + 5, at[i].y - 5}, trains.label(neurons[i]), 7, kBlack, Anchor::Start);
        }
    };
    return figure;
}

}  // namespace spikeminer::pipeline
