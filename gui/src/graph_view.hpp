#pragma once

#include "pipeline_run.hpp"

#include <QWidget>

#include <optional>
#include <vector>

namespace spikeminer::gui {

/// One window's co-firing graph: the neurons of its edges where the run's layout puts them
/// (the same place in every window), edges as wide as their weight (-log10 of the corrected
/// p), each neuron of a clique in its assembly's colour (grey for a clique of no reported
/// assembly), the selected assembly's members ringed.
class GraphView : public QWidget {
    Q_OBJECT

public:
    explicit GraphView(QWidget* parent = nullptr);

    /// Shows `run` (null: nothing) at its first window, no assembly selected.
    void set_run(RunPtr run);
    /// Shows window `w` of the run (ignored past its last).
    void set_window(std::size_t w);
    /// Rings the members of result.assemblies[a]; none: no ring.
    void set_selected_assembly(std::optional<std::size_t> a);

    [[nodiscard]] std::size_t window() const { return window_; }
    /// The edges drawn now.
    [[nodiscard]] std::size_t edge_count() const { return edges_.size(); }

    [[nodiscard]] QSize sizeHint() const override { return {520, 480}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {200, 200}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    RunPtr run_;
    std::size_t window_ = 0;
    std::vector<pipeline::WindowEdge> edges_;
    std::vector<int> colour_of_;  // per neuron: an index into result.assemblies, -2 a clique of none, -1 no clique
    std::optional<std::size_t> selected_;
};

}  // namespace spikeminer::gui
