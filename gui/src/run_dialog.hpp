#pragma once

#include "spikeminer/app/pipeline/run_config.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace spikeminer::gui {

/// The settings of `spikeminer run` that a run from the window takes: episodes, co-firing
/// windows, significance, assemblies and where to compute (the GPU named when there is
/// one). Opens with `start`'s values; OK checks them as `spikeminer run` does and keeps
/// the dialog open, saying what is wrong, until they pass.
class RunDialog : public QDialog {
    Q_OBJECT

public:
    RunDialog(const pipeline::RunConfig& start, QWidget* parent = nullptr);

    /// The settings (after the dialog was accepted): `start` with the fields shown here set.
    [[nodiscard]] const pipeline::RunConfig& config() const { return config_; }

public slots:
    void accept() override;

private:
    pipeline::RunConfig config_;
    QLineEdit* intervals_ = nullptr;
    QLineEdit* min_count_ = nullptr;
    QSpinBox* max_level_ = nullptr;
    QDoubleSpinBox* window_ = nullptr;
    QDoubleSpinBox* step_ = nullptr;
    QLineEdit* sync_ = nullptr;
    QDoubleSpinBox* q_ = nullptr;
    QComboBox* correction_ = nullptr;
    QDoubleSpinBox* significance_ = nullptr;
    QSpinBox* surrogates_ = nullptr;
    QSpinBox* min_size_ = nullptr;
    QDoubleSpinBox* jaccard_ = nullptr;
    QSpinBox* min_windows_ = nullptr;
    QComboBox* backend_ = nullptr;
};

}  // namespace spikeminer::gui
