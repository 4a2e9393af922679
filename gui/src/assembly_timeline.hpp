#pragma once

#include "pipeline_run.hpp"

#include <QWidget>

#include <optional>

namespace spikeminer::gui {

/// The tracked assemblies through time: one row each (in its colour), a bar over each run
/// of consecutive windows where it is a clique, a tick at each activation, a line at the
/// window shown. A click picks the window under the cursor and the assembly of the row.
/// Its height grows with the assemblies (put it in a scroll area); only the rows in view
/// are painted.
class AssemblyTimeline : public QWidget {
    Q_OBJECT

public:
    explicit AssemblyTimeline(QWidget* parent = nullptr);

    void set_run(RunPtr run);
    void set_window(std::size_t w);
    void set_selected_assembly(std::optional<std::size_t> a);

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override { return {240, 60}; }

signals:
    /// A click on row `assembly` (an index into result.assemblies; -1: below the rows) at
    /// window `window` (-1: on the labels, left of the time axis).
    void clicked(int assembly, int window);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    [[nodiscard]] double x_of(Tick t) const;
    [[nodiscard]] int window_at(double x) const;

    RunPtr run_;
    std::size_t window_ = 0;
    std::optional<std::size_t> selected_;
    Tick from_ = 0, to_ = 1;  // the windows' span, ticks
};

}  // namespace spikeminer::gui
