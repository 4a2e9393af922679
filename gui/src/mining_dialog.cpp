#include "mining_dialog.hpp"

#include "spikeminer/core/error.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QSpinBox>

namespace spikeminer::gui {

MiningDialog::MiningDialog(const SpikeTrains& trains, QWidget* parent) : QDialog(parent), trains_(trains) {
    setWindowTitle(tr("Mine episodes"));
    intervals_ = new QLineEdit(QStringLiteral("0-5,5-10"), this);
    intervals_->setToolTip(tr("Allowed delays between consecutive spikes of an episode: lo-hi pairs, (lo, hi] in ms"));
    min_rate_ = new QDoubleSpinBox(this);
    min_rate_->setRange(0.001, 10'000);
    min_rate_->setDecimals(3);
    min_rate_->setValue(5);
    min_rate_->setToolTip(tr("An episode is frequent when it occurs, non-overlapped, at least this often per second of "
                             "recording. Too low a rate on a busy recording makes level 3 explode."));
    max_level_ = new QSpinBox(this);
    max_level_->setRange(1, 64);
    max_level_->setValue(5);
    backend_ = new QComboBox(this);
    backend_->addItem(tr("GPU when there is one"), static_cast<int>(Backend::Auto));
    backend_->addItem(tr("CPU"), static_cast<int>(Backend::Cpu));
    backend_->addItem(tr("GPU"), static_cast<int>(Backend::Cuda));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Delays (ms)"), intervals_);
    form->addRow(tr("At least this many times a second"), min_rate_);
    form->addRow(tr("Longest episode (neurons)"), max_level_);
    form->addRow(tr("Count on"), backend_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &MiningDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void MiningDialog::accept() {
    try {
        options_.intervals = mining::parse_intervals(intervals_->text().toStdString(), trains_.time_base(), "ms");
    } catch (const UsageError& e) {
        QMessageBox::warning(this, windowTitle(), QString::fromStdString(e.what()));
        return;
    }
    options_.min_counts = {mining::count_for_rate(min_rate_->value(), trains_)};
    options_.max_level = static_cast<std::size_t>(max_level_->value());
    options_.count.backend = static_cast<Backend>(backend_->currentData().toInt());
    QDialog::accept();
}

}  // namespace spikeminer::gui
