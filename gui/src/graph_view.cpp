#include "graph_view.hpp"

#include "spikeminer/app/assembly_palette.hpp"

#include <QPainter>

#include <algorithm>
#include <map>
#include <numeric>

namespace spikeminer::gui {
namespace {

constexpr int kNoClique = -1;
constexpr int kUnreportedClique = -2;
constexpr double kMargin = 24;
constexpr double kRadius = 4.5;
constexpr std::size_t kMostLabels = 150;  // more labels than this only hide the graph

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

    const QRectF area(kMargin, kMargin + 12, std::max(1.0, width() - 2 * kMargin), std::max(1.0, height() - 2 * kMargin - 12));
    const double side = std::min(area.width(), area.height());
    const QPointF origin(area.left() + (area.width() - side) / 2, area.top() + (area.height() - side) / 2);
    const auto place = [&](NeuronId n) {
        const figures::Point p = *run_->layout[n];
        return QPointF(origin.x() + p.x * side, origin.y() + p.y * side);
    };

    QColor edge_colour(110, 110, 110, 150);
    for (const pipeline::WindowEdge& e : edges_) {
        painter.setPen(QPen(edge_colour, 0.4 + std::min(static_cast<double>(e.weight), 20.0) / 5.0));
        painter.drawLine(place(e.a), place(e.b));
    }
    std::vector<NeuronId> shown;
    for (const pipeline::WindowEdge& e : edges_) shown.push_back(e.a), shown.push_back(e.b);
    std::sort(shown.begin(), shown.end());
    shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
    const std::vector<NeuronId>* ringed = selected_ && *selected_ < run_->result.assemblies.size()
                                              ? &run_->result.assemblies[*selected_].members
                                              : nullptr;
    for (const NeuronId n : shown) {
        const int colour = colour_of_[n];
        const QColor fill(QString::fromLatin1(colour >= 0 ? assembly_colour(static_cast<std::size_t>(colour))
                                              : colour == kUnreportedClique ? kUnreportedCliqueColour
                                                                            : kOtherNeuronColour));
        const bool ring = ringed != nullptr && std::binary_search(ringed->begin(), ringed->end(), n);
        painter.setPen(ring ? QPen(Qt::black, 2.5) : QPen(fill.darker(130), 1));
        painter.setBrush(fill);
        painter.drawEllipse(place(n), ring ? kRadius + 1.5 : kRadius, ring ? kRadius + 1.5 : kRadius);
    }
    if (shown.size() <= kMostLabels) {
        painter.setPen(palette().color(QPalette::Text));
        QFont font = painter.font();
        font.setPointSizeF(font.pointSizeF() * 0.8);
        painter.setFont(font);
        for (const NeuronId n : shown) painter.drawText(place(n) + QPointF(kRadius + 1, -kRadius), QString::fromStdString(trains.label(n)));
    }
}

}  // namespace spikeminer::gui
