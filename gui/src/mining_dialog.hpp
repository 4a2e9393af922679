#pragma once

#include "spikeminer/mining/mine.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace spikeminer::gui {

/// Asks what to mine: the allowed delays (as the command line's --intervals, in ms), the
/// threshold as occurrences per second, the longest episode and where to count. OK checks
/// the intervals and keeps the dialog open, saying what is wrong, until they parse.
class MiningDialog : public QDialog {
    Q_OBJECT

public:
    MiningDialog(const SpikeTrains& trains, QWidget* parent = nullptr);

    /// The mining as set (after the dialog was accepted), in the recording's ticks.
    [[nodiscard]] const mining::MiningOptions& options() const { return options_; }

public slots:
    void accept() override;

private:
    const SpikeTrains& trains_;
    QLineEdit* intervals_ = nullptr;
    QDoubleSpinBox* min_rate_ = nullptr;
    QSpinBox* max_level_ = nullptr;
    QComboBox* backend_ = nullptr;
    mining::MiningOptions options_;
};

}  // namespace spikeminer::gui
