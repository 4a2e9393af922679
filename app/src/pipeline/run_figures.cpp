// See run_figures.hpp.
#include "spikeminer/app/pipeline/run_figures.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/figures/graph_drawing.hpp"
#include "spikeminer/app/figures/graph_layout.hpp"
#include "spikeminer/app/pipeline/window_edges.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

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

std::vector<std::optional<figures::Point>> neuron_layout(const SpikeTrains& trains, std::span<const std::pair<NeuronId, NeuronId>> edges,
                                                         bool* at_electrodes) {
    std::vector<NeuronId> joined;  // the neurons of some edge, ascending, numbered 0.. for the layout
    for (const auto& [a, b] : edges) joined.push_back(a), joined.push_back(b);
    std::sort(joined.begin(), joined.end());
    joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
    const auto local = [&joined](NeuronId n) { return static_cast<std::uint32_t>(std::lower_bound(joined.begin(), joined.end(), n) - joined.begin()); };
    const std::vector<Position>& sites = trains.neuron_table().positions;
    if (at_electrodes != nullptr) *at_electrodes = !sites.empty();
    std::vector<figures::Point> at;
    if (!sites.empty()) {
        const std::vector<figures::Point> array = figures::electrode_layout(sites);  // the whole array's plane
        for (const NeuronId n : joined) at.push_back(array[n]);
    } else if (figures::figures_available()) {
        std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
        for (const auto& [a, b] : edges) pairs.emplace_back(local(a), local(b));
        at = figures::spring_layout(joined.size(), pairs);
    } else {
        for (std::size_t i = 0; i < joined.size(); ++i) {
            const double angle = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(joined.size());
            at.push_back({0.5 + 0.5 * std::cos(angle), 0.5 + 0.5 * std::sin(angle)});
        }
    }
    std::vector<std::optional<figures::Point>> layout(trains.num_neurons());
    for (std::size_t i = 0; i < joined.size(); ++i) layout[joined[i]] = at[i];
    return layout;
}

figures::Figure timeline_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<figures::Size> size) {
    constexpr double kLeft = 110, kTop = 40, kRight = 20, kBottom = 40;
    constexpr double kWidth = 860, kRow = 16;        // at the figure's own size
    constexpr double kThinnest = 4, kTallest = 40;  // a row's height at a chosen size
    constexpr double kLabelled = 8;                 // rows this high have their labels
    constexpr std::size_t kMostRows = 200;          // the first assemblies to appear, so that a PNG stays drawable
    std::size_t shown = std::min(result.assemblies.size(), kMostRows);
    double row = kRow;
    figures::Figure figure;
    if (size) {  // the rows share the height, the first that fit
        const double room = std::max(0.0, size->height - kTop - kBottom);
        shown = std::min(shown, static_cast<std::size_t>(room / kThinnest));
        if (shown > 0) row = std::min(kTallest, room / static_cast<double>(shown));
        figure.width = size->width;
        figure.height = size->height;
    } else {
        figure.width = kLeft + kWidth + kRight;
        figure.height = kTop + kRow * static_cast<double>(shown) + kBottom;
    }
    const double width = std::max(1.0, figure.width - kLeft - kRight);
    figure.draw = [&trains, &result, shown, row, width](Canvas& canvas) {
        const TimeBase& tb = trains.time_base();
        const Tick from = result.windows.empty() ? 0 : result.windows.front().span.start;
        const Tick to = result.windows.empty() ? 1 : std::max(result.windows.back().span.end, from + 1);
        const auto x = [&](Tick t) { return kLeft + width * static_cast<double>(t - from) / static_cast<double>(to - from); };
        const std::string count = shown < result.assemblies.size()
                                      ? "the first " + std::to_string(shown) + " of " + std::to_string(result.assemblies.size()) + " assemblies"
                                      : std::to_string(shown) + " assemblies";
        canvas.text({10, 18}, count + " through time (bars: active periods; ticks: activations)", 13, kBlack, Anchor::Start);
        const double unit = row / kRow;  // the row's parts as at the figure's own size
        for (std::size_t a = 0; a < shown; ++a) {
            const Assembly& assembly = result.assemblies[a];
            const double y = kTop + row * static_cast<double>(a);
            if (row >= kLabelled) {
                canvas.text({kLeft - 6, y + 10 * unit}, "assembly " + std::to_string(assembly.track.id) + " (" + std::to_string(assembly.members.size()) + ")",
                            std::min(10.0, 10 * unit), kBlack, Anchor::End);
            }
            for (const TimeSpan& period : assembly.active) {
                const double x0 = x(period.start);
                canvas.rect({x0, y + 2 * unit}, std::max(1.0, x(period.end) - x0), 8 * unit, Colour::hex(assembly_colour(a), 0.6));
            }
            for (const Tick t : assembly.activations) canvas.line({x(t), y + 10 * unit}, {x(t), y + 14 * unit}, Colour::hex(assembly_colour(a)), 0.6);
        }
        const double axis = kTop + row * static_cast<double>(shown) + 6;
        canvas.line({kLeft, axis}, {kLeft + width, axis}, kBlack, 1);
        canvas.text({kLeft, axis + 14}, format("%.1f s", tb.to_seconds(from)), 10, kBlack, Anchor::Start);
        canvas.text({kLeft + width, axis + 14}, format("%.1f s", tb.to_seconds(to)), 10, kBlack, Anchor::End);
    };
    return figure;
}

figures::Figure graph_figure(const SpikeTrains& trains, const PipelineResult& result, std::optional<std::size_t> window,
                             std::span<const std::optional<figures::Point>> layout, std::optional<figures::Size> size) {
    constexpr double kSize = 700, kMargin = 30, kTop = 40;  // the figure's own size: a square below the titles
    constexpr double kRadius = 4, kLabelSize = 7;
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
            const std::optional<std::size_t> a = assembly_index(result, w.assemblies[c]);
            clique_colour.push_back(Colour::hex(a ? assembly_colour(*a) : kUnreportedCliqueColour));
        }
    }
    std::vector<int> group = first_assembly_of(trains.num_neurons(), cliques);
    std::vector<std::pair<NeuronId, NeuronId>> pairs;
    for (const WindowEdge& e : edges) pairs.emplace_back(e.a, e.b);
    const std::vector<std::optional<figures::Point>> own = layout.empty() ? neuron_layout(trains, pairs) : std::vector<std::optional<figures::Point>>{};
    if (layout.empty()) layout = own;
    const bool at_electrodes = !trains.neuron_table().positions.empty();

    figures::Figure figure;
    figure.width = size ? size->width : kSize;
    figure.height = size ? size->height : kSize + kTop;
    // The layout fills the room below the titles (one fit for the whole layout: the same
    // neuron in the same place in every window's figure).
    const figures::LayoutFit fit = figures::fit_layout(
        layout, {kMargin, kTop + kMargin, std::max(1.0, figure.width - 2 * kMargin), std::max(1.0, figure.height - kTop - 2 * kMargin)}, at_electrodes);
    // The drawn neurons (those of the window's edges), numbered 0.., at their places.
    std::map<NeuronId, std::uint32_t> index;
    for (const WindowEdge& e : edges) index.emplace(e.a, 0), index.emplace(e.b, 0);
    std::vector<NeuronId> neurons;
    std::vector<figures::Point> at;
    for (auto& [neuron, i] : index) {
        i = static_cast<std::uint32_t>(neurons.size());
        neurons.push_back(neuron);
        at.push_back(fit(neuron < layout.size() && layout[neuron] ? *layout[neuron] : figures::Point{0.5, 0.5}));
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local;
    std::vector<std::size_t> degree(neurons.size(), 0);
    for (const WindowEdge& e : edges) {
        local.emplace_back(index[e.a], index[e.b]);
        ++degree[index[e.a]], ++degree[index[e.b]];
    }
    // Labels for the neurons of most edges first, where they fit.
    std::vector<std::size_t> label_order(neurons.size());
    for (std::size_t i = 0; i < label_order.size(); ++i) label_order[i] = i;
    std::stable_sort(label_order.begin(), label_order.end(), [&degree](std::size_t a, std::size_t b) { return degree[a] > degree[b]; });

    std::string title = "no windows";
    if (!result.windows.empty()) {
        const TimeBase& tb = trains.time_base();
        title = "co-firing graph of window " + std::to_string(shown) + " (" + format("%.1f", tb.to_seconds(result.windows[shown].span.start)) + "-" +
                format("%.1f s): ", tb.to_seconds(result.windows[shown].span.end)) + std::to_string(edges.size()) +
                " edges";
    }
    std::string subtitle = std::string("cliques in their assemblies' colours; ") +
                           (at_electrodes ? "neurons at their electrodes" : "laid out by Graphviz (neato)") +
                           "; labels where they fit, the neurons of most edges first";
    figure.draw = [&trains, title = std::move(title), subtitle = std::move(subtitle), group = std::move(group), clique_colour = std::move(clique_colour),
                   neurons = std::move(neurons), local = std::move(local), at = std::move(at), label_order = std::move(label_order),
                   bounds = figures::Box{0, kTop, figure.width, figure.height - kTop}](Canvas& canvas) {
        canvas.text({10, 18}, title, 13, kBlack, Anchor::Start);
        canvas.text({10, 34}, subtitle, 10, kBlack, Anchor::Start);
        const Colour edge{0.55, 0.55, 0.55, 0.7};
        for (const auto& [a, b] : local) canvas.line(at[a], at[b], edge, 0.5);
        std::vector<figures::LabelWish> wishes;
        for (std::size_t i = 0; i < neurons.size(); ++i) {
            const int g = group[neurons[i]];
            canvas.circle(at[i], kRadius, g == -1 ? Colour::hex(kOtherNeuronColour) : clique_colour[static_cast<std::size_t>(g)]);
            wishes.push_back({at[i], canvas.text_width(trains.label(neurons[i]), kLabelSize), kLabelSize});
        }
        const std::vector<std::optional<figures::Box>> labels = figures::place_labels(wishes, label_order, kRadius + 1, bounds);
        for (std::size_t i = 0; i < neurons.size(); ++i) {
            // A box one em high: the baseline at 0.8 of it leaves the descenders room.
            if (labels[i]) canvas.text({labels[i]->left, labels[i]->top + 0.8 * kLabelSize}, trains.label(neurons[i]), kLabelSize, kBlack, Anchor::Start);
        }
    };
    return figure;
}

}  // namespace spikeminer::pipeline
