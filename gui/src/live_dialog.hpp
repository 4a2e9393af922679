#pragma once

#include <QDialog>

class QLineEdit;

namespace spikeminer::gui {

/// Where a live session's spikes come from (a file still being written, or a ZeroMQ
/// endpoint such as tcp://rig:5556) and the new or empty folder its results go to.
class LiveDialog : public QDialog {
    Q_OBJECT

public:
    explicit LiveDialog(QWidget* parent = nullptr);
    [[nodiscard]] QString source() const;
    [[nodiscard]] QString folder() const;

private:
    QLineEdit* source_ = nullptr;
    QLineEdit* folder_ = nullptr;
};

}  // namespace spikeminer::gui
