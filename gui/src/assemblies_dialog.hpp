#pragma once

#include "spikeminer/app/find_assemblies.hpp"

#include <QDialog>

class QDoubleSpinBox;
class QSpinBox;

namespace spikeminer::gui {

/// Asks for the co-firing test (synchrony, the baseline lags, the false discovery rate) and
/// the smallest assembly, starting from the command line's defaults
/// (default_assembly_search); times in milliseconds.
class AssembliesDialog : public QDialog {
    Q_OBJECT

public:
    AssembliesDialog(const TimeBase& time_base, QWidget* parent = nullptr);

    /// The search as set, in the recording's ticks.
    [[nodiscard]] AssemblySearch search() const;

private:
    TimeBase time_base_;
    QDoubleSpinBox* sync_ms_ = nullptr;
    QDoubleSpinBox* baseline_from_ms_ = nullptr;
    QDoubleSpinBox* baseline_to_ms_ = nullptr;
    QDoubleSpinBox* q_ = nullptr;
    QSpinBox* min_size_ = nullptr;
};

}  // namespace spikeminer::gui
