#pragma once

#include "pipeline_run.hpp"

#include <QWidget>

#include <optional>

class QLabel;
class QSlider;
class QSortFilterProxyModel;
class QTableView;

namespace spikeminer::gui {

class AssembliesModel;
class AssemblyTimeline;
class GraphView;

/// A pipeline run through time: a slider over its windows, the window's co-firing graph,
/// the assemblies' timeline and their table. The slider moves the graph, the timeline's
/// line and (through window_changed) the raster's highlighted span; picking an assembly
/// in the table or the timeline selects it in all three.
class PipelinePanel : public QWidget {
    Q_OBJECT

public:
    explicit PipelinePanel(QWidget* parent = nullptr);
    /// Stops listening to the table's selection before the children go (their deletion
    /// may clear it).
    ~PipelinePanel() override;

    /// Shows `run` (null: none) at its first window.
    void set_run(RunPtr run);
    /// Moves the slider (and everything that follows it) to window `w`.
    void show_window(std::size_t w);
    /// Moves to the window with the most edges (the first of them).
    void show_busiest_window();
    /// Selects result.assemblies[a] everywhere; none: no selection.
    void select_assembly(std::optional<std::size_t> a);

    [[nodiscard]] std::size_t window() const;
    /// The run shown (null: none).
    [[nodiscard]] const RunPtr& run() const { return run_; }
    [[nodiscard]] GraphView* graph() const { return graph_; }

signals:
    /// The window shown, as its span in seconds.
    void window_changed(double start_s, double end_s);
    /// The selected assembly, an index into result.assemblies (-1: none selected).
    void assembly_selected(int assembly);

private:
    void on_slider(int value);
    void on_table_selection();

    RunPtr run_;
    QSlider* slider_ = nullptr;
    QLabel* window_label_ = nullptr;
    GraphView* graph_ = nullptr;
    AssemblyTimeline* timeline_ = nullptr;
    AssembliesModel* model_ = nullptr;
    QSortFilterProxyModel* sorted_ = nullptr;
    QTableView* table_ = nullptr;
    std::optional<std::size_t> selected_;
};

}  // namespace spikeminer::gui
