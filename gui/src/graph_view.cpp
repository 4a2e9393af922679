#include "graph_view.hpp"

#include "spikeminer/app/assembly_palette.hpp"
#include "spikeminer/app/figures/graph_drawing.hpp"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <map>
#include <numeric>

namespace spikeminer::gui {
namespace {

constexpr int kNoClique = -1;
constexpr int kUnreportedClique = -2;
constexpr double kMargin = 24;
constexpr double kTitle = 20;  // the band of the window's title
constexpr double kRadius = 4.5;
constexpr double kRingRadius = kRadius + 1.5;
constexpr double kLabelGap = kRingRadius + 1.5;  // a ringed neuron's outer edge: labels cover no neuron, ringed or not

}  // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void GraphView::set_run(RunPtr run) {
    run_ = std::move(run);
    selected_.reset();
    window_ = 0;
    edges_.clear();
    colour_of_.clear();
    components_ = 0;
    if (run_ != nullptr && !run_->result.windows.empty()) set_window(0);
    update();
}

void GraphView::set_window(std::size_t w) {
    if (run_ == nullptr || w >= run_->result.windows.size()) return;
    window_ = w;
    edges_ = run_->edges->at(w);
    colour_neurons();
    update();
}

void GraphView::set_colouring(Colouring colouring) {
    colouring_ = colouring;
    if (run_ != nullptr && !run_->result.windows.empty()) colour_neurons();
    update();
}

void GraphView::colour_neurons() {
    const std::size_t neurons = run_->trains().num_neurons();
    colour_of_.assign(neurons, kNoClique);
    // The components, for their count and for colouring by them: union-find over the edges.
    std::vector<NeuronId> parent(neurons);
    std::iota(parent.begin(), parent.end(), NeuronId{0});
    const auto root = [&parent](NeuronId n) {
        while (parent[n] != n) n = parent[n] = parent[parent[n]];
        return n;
    };
    for (const pipeline::WindowEdge& e : edges_) parent[root(e.a)] = root(e.b);
    std::map<NeuronId, std::size_t> size_of;  // per root: its neurons
    for (const pipeline::WindowEdge& e : edges_) size_of[root(e.a)] = 0;
    for (NeuronId n = 0; n < neurons; ++n) {
        if (const auto at = size_of.find(root(n)); at != size_of.end()) ++at->second;
    }
    components_ = size_of.size();
    if (colouring_ == Colouring::Components) {
        std::vector<std::pair<std::size_t, NeuronId>> largest;  // (size, root), largest first, then by root
        for (const auto& [r, size] : size_of) largest.emplace_back(size, r);
        std::stable_sort(largest.begin(), largest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::map<NeuronId, int> index;
        for (std::size_t i = 0; i < largest.size(); ++i) index[largest[i].second] = static_cast<int>(i);
        for (NeuronId n = 0; n < neurons; ++n) {
            if (const auto at = index.find(root(n)); at != index.end()) colour_of_[n] = at->second;
        }
        return;
    }
    const pipeline::WindowSummary& window = run_->result.windows[window_];
    for (std::size_t c = 0; c < window.cliques.size(); ++c) {
        const std::optional<std::size_t> a = pipeline::assembly_index(run_->result, window.assemblies[c]);
        for (const NeuronId n : window.cliques[c]) {
            if (colour_of_[n] == kNoClique) colour_of_[n] = a ? static_cast<int>(*a) : kUnreportedClique;
        }
    }
}

void GraphView::set_selected_assembly(std::optional<std::size_t> a) {
    selected_ = a;
    update();
}

QFont GraphView::label_font() const {
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    return small;
}

GraphView::Drawing GraphView::lay_out() const {
    Drawing drawing;
    if (run_ == nullptr || run_->result.windows.empty()) return drawing;
    std::vector<NeuronId>& neurons = drawing.neurons;
    for (const pipeline::WindowEdge& e : edges_) neurons.push_back(e.a), neurons.push_back(e.b);
    std::sort(neurons.begin(), neurons.end());
    neurons.erase(std::unique(neurons.begin(), neurons.end()), neurons.end());
    const auto index = [&neurons](NeuronId n) { return static_cast<std::size_t>(std::lower_bound(neurons.begin(), neurons.end(), n) - neurons.begin()); };
    std::vector<std::size_t> degree(neurons.size(), 0);
    for (const pipeline::WindowEdge& e : edges_) ++degree[index(e.a)], ++degree[index(e.b)];

    // One fit of the whole run's layout: each neuron keeps its place from window to window.
    const figures::LayoutFit fit = figures::fit_layout(
        run_->layout, {kMargin, kMargin + 12, std::max(1.0, width() - 2 * kMargin), std::max(1.0, height() - 2 * kMargin - 12)}, run_->at_electrodes);
    const QFontMetricsF metrics(label_font(), this);
    std::vector<figures::LabelWish> wishes;
    for (const NeuronId n : neurons) {
        const figures::Point p = fit(*run_->layout[n]);
        drawing.at.emplace_back(p.x, p.y);
        wishes.push_back({p, metrics.horizontalAdvance(QString::fromStdString(run_->trains().label(n))), metrics.ascent() + metrics.descent()});
    }
    // The selected assembly's members first, then the neurons of most edges.
    const std::vector<NeuronId>* ringed = selected_ && *selected_ < run_->result.assemblies.size() ? &run_->result.assemblies[*selected_].members : nullptr;
    const auto is_ringed = [&](std::size_t i) { return ringed != nullptr && std::binary_search(ringed->begin(), ringed->end(), neurons[i]); };
    std::vector<std::size_t> order(neurons.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::pair(is_ringed(a), degree[a]) > std::pair(is_ringed(b), degree[b]);
    });
    const figures::Box bounds{0, kTitle, static_cast<double>(width()), std::max(0.0, height() - kTitle)};
    for (const std::optional<figures::Box>& box : figures::place_labels(wishes, order, kLabelGap, bounds)) {
        drawing.labels.push_back(box ? std::optional<QRectF>(QRectF(box->left, box->top, box->width, box->height)) : std::nullopt);
    }
    return drawing;
}

std::vector<std::pair<NeuronId, QRectF>> GraphView::label_boxes() const {
    const Drawing drawing = lay_out();
    std::vector<std::pair<NeuronId, QRectF>> boxes;
    for (std::size_t i = 0; i < drawing.neurons.size(); ++i) {
        if (drawing.labels[i]) boxes.emplace_back(drawing.neurons[i], *drawing.labels[i]);
    }
    return boxes;
}

void GraphView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (run_ == nullptr || run_->result.windows.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, run_ == nullptr ? tr("Run the pipeline (Analysis menu) to see the co-firing graph")
                                                                  : tr("The recording is shorter than one window"));
        return;
    }
    const SpikeTrains& trains = run_->trains();
    const pipeline::WindowSummary& window = run_->result.windows[window_];
    const double t0 = trains.time_base().to_seconds(window.span.start);
    const double t1 = trains.time_base().to_seconds(window.span.end);
    painter.drawText(QPointF(8, 16), (colouring_ == Colouring::Components ? tr("window %1: %2–%3 s, %4 edges, %5 components%6")
                                                                          : tr("window %1: %2–%3 s, %4 edges, %5 cliques%6"))
                                         .arg(window_ + 1)
                                         .arg(t0, 0, 'f', 1)
                                         .arg(t1, 0, 'f', 1)
                                         .arg(edges_.size())
                                         .arg(colouring_ == Colouring::Components ? components_ : window.cliques.size())
                                         .arg(run_->at_electrodes ? tr(" (neurons at their electrodes)") : QString()));

    const Drawing drawing = lay_out();
    const auto place = [&drawing](NeuronId n) {
        return drawing.at[static_cast<std::size_t>(std::lower_bound(drawing.neurons.begin(), drawing.neurons.end(), n) - drawing.neurons.begin())];
    };
    QColor edge_colour(110, 110, 110, 150);
    for (const pipeline::WindowEdge& e : edges_) {
        painter.setPen(QPen(edge_colour, 0.4 + std::min(static_cast<double>(e.weight), 20.0) / 5.0));
        painter.drawLine(place(e.a), place(e.b));
    }
    const std::vector<NeuronId>* ringed = selected_ && *selected_ < run_->result.assemblies.size()
                                              ? &run_->result.assemblies[*selected_].members
                                              : nullptr;
    for (std::size_t i = 0; i < drawing.neurons.size(); ++i) {
        const NeuronId n = drawing.neurons[i];
        const int colour = colour_of_[n];
        const QColor fill(QString::fromLatin1(colour >= 0 ? assembly_colour(static_cast<std::size_t>(colour))
                                              : colour == kUnreportedClique ? kUnreportedCliqueColour
                                                                            : kOtherNeuronColour));
        const bool ring = ringed != nullptr && std::binary_search(ringed->begin(), ringed->end(), n);
        painter.setPen(ring ? QPen(Qt::black, 2.5) : QPen(fill.darker(130), 1));
        painter.setBrush(fill);
        painter.drawEllipse(drawing.at[i], ring ? kRingRadius : kRadius, ring ? kRingRadius : kRadius);
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.setFont(label_font());
    const double ascent = QFontMetricsF(painter.font(), this).ascent();
    for (std::size_t i = 0; i < drawing.neurons.size(); ++i) {
        if (!drawing.labels[i]) continue;
        painter.drawText(QPointF(drawing.labels[i]->left(), drawing.labels[i]->top() + ascent), QString::fromStdString(trains.label(drawing.neurons[i])));
    }
}

}  // namespace spikeminer::gui
