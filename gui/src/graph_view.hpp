#pragma once

#include "pipeline_run.hpp"

#include <QRectF>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

namespace spikeminer::gui {

/// One window's co-firing graph: the neurons of its edges where the run's layout puts them
/// (the same place in every window), edges as wide as their weight (-log10 of the corrected
/// p), each neuron of a clique in its assembly's colour (grey for a clique of no reported
/// assembly) or each in its component's, the selected assembly's members ringed. The layout
/// fills the view (figures::fit_layout); a neuron's label is drawn where it covers no other
/// label and no neuron (figures::place_labels: the selected assembly's members first, then
/// the neurons of most edges), so that a crowded graph shows fewer labels, never a pile.
class GraphView : public QWidget {
    Q_OBJECT

public:
    /// What a neuron's colour says: the assembly of its clique, or its connected component
    /// in the window's graph (components of 2 or more, largest first, in the palette's order).
    enum class Colouring { Assemblies, Components };

    explicit GraphView(QWidget* parent = nullptr);

    /// Shows `run` (null: nothing) at its first window, no assembly selected.
    void set_run(RunPtr run);
    /// Shows window `w` of the run (ignored past its last).
    void set_window(std::size_t w);
    void set_colouring(Colouring colouring);
    /// Rings the members of result.assemblies[a]; none: no ring.
    void set_selected_assembly(std::optional<std::size_t> a);

    [[nodiscard]] std::size_t window() const { return window_; }
    /// The edges drawn now.
    [[nodiscard]] std::size_t edge_count() const { return edges_.size(); }
    /// The connected components of 2 or more neurons drawn now.
    [[nodiscard]] std::size_t component_count() const { return components_; }

    /// The labels drawn at the view's size now: each neuron's, and the box its text fills.
    [[nodiscard]] std::vector<std::pair<NeuronId, QRectF>> label_boxes() const;

    [[nodiscard]] QSize sizeHint() const override { return {860, 480}; }
    /// Room for a readable graph: the window's splitter and dock cannot squash it to a strip.
    [[nodiscard]] QSize minimumSizeHint() const override { return {420, 300}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    /// The window's neurons where they are drawn at the view's size, and their labels' boxes.
    struct Drawing {
        std::vector<NeuronId> neurons;  // those of the window's edges, ascending
        std::vector<QPointF> at;
        std::vector<std::optional<QRectF>> labels;  // none: left out
    };
    [[nodiscard]] Drawing lay_out() const;
    [[nodiscard]] QFont label_font() const;

    RunPtr run_;
    std::size_t window_ = 0;
    std::vector<pipeline::WindowEdge> edges_;
    void colour_neurons();

    Colouring colouring_ = Colouring::Assemblies;
    std::vector<int> colour_of_;  // per neuron: a palette index, -2 a clique of no reported assembly, -1 none
    std::size_t components_ = 0;
    std::optional<std::size_t> selected_;
};

}  // namespace spikeminer::gui
