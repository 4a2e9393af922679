#pragma once

#include "spikeminer/app/pipeline/run_config.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace spikeminer::gui {

/// Which of the simulator's scenarios to simulate (as `spikeminer run --simulate`), its
/// seed and its length; the simulation keeps its ground truth, so that a pipeline run on
/// it says what it recovered.
class SimulateDialog : public QDialog {
    Q_OBJECT

public:
    explicit SimulateDialog(QWidget* parent = nullptr);

    /// simulate, seed and duration_s set (after the dialog was accepted).
    [[nodiscard]] pipeline::RunConfig config() const;

private:
    QComboBox* scenario_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QDoubleSpinBox* duration_ = nullptr;
};

}  // namespace spikeminer::gui
