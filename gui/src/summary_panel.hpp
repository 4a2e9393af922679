#pragma once

#include "loaded_recording.hpp"

#include <QWidget>

class QFormLayout;
class QLabel;
class QTableWidget;
class QTreeWidget;

namespace spikeminer::gui {

/// What a recording holds, as `spikeminer info --neurons` prints it: file, format, tick,
/// counts, span and rates, then a sortable table of every neuron, and structured metadata
/// (a simulation's settings) as a collapsible tree.
class SummaryPanel : public QWidget {
    Q_OBJECT

public:
    explicit SummaryPanel(QWidget* parent = nullptr);

    /// Shows `recording`, replacing what was shown.
    void set_recording(const LoadedRecording& recording);

private:
    QLabel* add_row(const QString& name, const QString& value);

    QFormLayout* form_ = nullptr;
    QTableWidget* neurons_ = nullptr;
    QTreeWidget* details_ = nullptr;  // JSON metadata (a simulation's settings), collapsed
};

}  // namespace spikeminer::gui
