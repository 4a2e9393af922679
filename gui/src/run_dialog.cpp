#include "run_dialog.hpp"

#include "spikeminer/core/backend.hpp"
#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QSpinBox>
#include <QVBoxLayout>

namespace spikeminer::gui {
namespace {

QDoubleSpinBox* number(QWidget* parent, double low, double high, int decimals, double value, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

QSpinBox* whole(QWidget* parent, int low, int high, std::size_t value, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setValue(static_cast<int>(std::min<std::size_t>(value, static_cast<std::size_t>(high))));
    box->setToolTip(tip);
    return box;
}

QLineEdit* text(QWidget* parent, const std::string& value, const QString& tip) {
    auto* line = new QLineEdit(QString::fromStdString(value), parent);
    line->setToolTip(tip);
    return line;
}

}  // namespace

RunDialog::RunDialog(const pipeline::RunConfig& start, QWidget* parent) : QDialog(parent), config_(start) {
    setWindowTitle(tr("Run the pipeline"));
    intervals_ = text(this, start.mining_intervals_ms, tr("Allowed delays between consecutive spikes of an episode: lo-hi pairs, (lo, hi] in ms"));
    min_count_ = text(this, start.mining_min_count,
                      tr("auto (twice what two busy neurons give by chance), one count, or one per level (300,200,100)"));
    max_level_ = whole(this, 1, 64, start.max_level, tr("The longest episode, in neurons"));
    window_ = number(this, 0, 1e6, 3, start.window_s,
                     tr("Each co-firing window is this many seconds wide… (auto: 10 s, or long enough for 50 spikes of the median neuron)"));
    step_ = number(this, 0, 1e6, 3, start.step_s,
                   tr("… and starts this many seconds after the one before (the window a whole number of steps; auto: a tenth of it)"));
    window_->setSpecialValueText(tr("auto"));
    step_->setSpecialValueText(tr("auto"));
    sync_ = text(this, start.sync_ms, tr("Two neurons co-fire when their spikes fall within this many ms of each other"));
    q_ = number(this, 1e-9, 1, 6, start.q, tr("False discovery rate of the edges over all pairs of a window"));
    correction_ = new QComboBox(this);
    correction_->addItem(tr("Benjamini–Hochberg"), QStringLiteral("bh"));
    correction_->addItem(tr("Bonferroni"), QStringLiteral("bonferroni"));
    correction_->setCurrentIndex(start.correction == "bonferroni" ? 1 : 0);
    significance_ = number(this, 0, 1, 4, start.significance_q,
                           tr("0: off. Otherwise keep only episodes, and mark assemblies, more frequent than in surrogates at this false discovery rate"));
    surrogates_ = whole(this, 1, 1'000'000, start.surrogates, tr("Surrogate recordings per test"));
    surrogates_->setEnabled(start.significance_q > 0);
    connect(significance_, &QDoubleSpinBox::valueChanged, surrogates_, [this](double q) { surrogates_->setEnabled(q > 0); });
    min_size_ = whole(this, 2, 10'000, start.min_size, tr("The smallest assembly, in neurons"));
    jaccard_ = number(this, 0.01, 1, 2, start.jaccard, tr("Cliques of consecutive windows this alike (Jaccard) are one assembly"));
    min_windows_ = whole(this, 1, 1'000'000, start.min_windows, tr("Assemblies seen in fewer windows are left out"));

    backend_ = new QComboBox(this);
    const DeviceReport devices = query_devices();
    const QString gpu = devices.devices.empty() ? tr("none: %1").arg(QString::fromStdString(devices.status))
                                                : QString::fromStdString(devices.devices.front().name);
    backend_->addItem(tr("Auto (GPU: %1)").arg(gpu), QStringLiteral("auto"));
    backend_->addItem(tr("CPU"), QStringLiteral("cpu"));
    backend_->addItem(tr("GPU (%1)").arg(gpu), QStringLiteral("gpu"));
    const std::string backend = parse_backend(start.backend) == Backend::Cuda ? "gpu" : start.backend;  // "cuda" names it too
    backend_->setCurrentIndex(std::max(0, backend_->findData(QString::fromStdString(backend))));

    const auto group = [this](const QString& title) {
        auto* box = new QGroupBox(title, this);
        return std::pair{box, new QFormLayout(box)};
    };
    auto [episodes, episodes_form] = group(tr("Episodes"));
    episodes_form->addRow(tr("Delays (ms)"), intervals_);
    episodes_form->addRow(tr("Threshold"), min_count_);
    episodes_form->addRow(tr("Longest episode"), max_level_);
    auto [cofiring, cofiring_form] = group(tr("Co-firing windows"));
    cofiring_form->addRow(tr("Window (s)"), window_);
    cofiring_form->addRow(tr("Step (s)"), step_);
    cofiring_form->addRow(tr("Synchrony (ms)"), sync_);
    cofiring_form->addRow(tr("q"), q_);
    cofiring_form->addRow(tr("Correction"), correction_);
    auto [assemblies, assemblies_form] = group(tr("Assemblies"));
    assemblies_form->addRow(tr("Smallest"), min_size_);
    assemblies_form->addRow(tr("Tracking similarity"), jaccard_);
    assemblies_form->addRow(tr("Fewest windows"), min_windows_);
    auto [significance, significance_form] = group(tr("Significance against surrogates"));
    significance_form->addRow(tr("q (0: off)"), significance_);
    significance_form->addRow(tr("Surrogates"), surrogates_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &RunDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* where = new QFormLayout;
    where->addRow(tr("Compute on"), backend_);
    auto* layout = new QVBoxLayout(this);
    for (QWidget* box : {static_cast<QWidget*>(episodes), static_cast<QWidget*>(cofiring), static_cast<QWidget*>(assemblies),
                         static_cast<QWidget*>(significance)}) {
        layout->addWidget(box);
    }
    layout->addLayout(where);
    layout->addWidget(buttons);
}

void RunDialog::accept() {
    pipeline::RunConfig config = config_;
    config.mining_intervals_ms = intervals_->text().trimmed().toStdString();
    config.mining_min_count = min_count_->text().trimmed().toStdString();
    config.max_level = static_cast<std::size_t>(max_level_->value());
    config.window_s = window_->value();
    config.step_s = step_->value();
    config.sync_ms = sync_->text().trimmed().toStdString();
    config.q = q_->value();
    config.correction = correction_->currentData().toString().toStdString();
    config.significance_q = significance_->value();
    config.surrogates = config.significance_q > 0 ? static_cast<std::size_t>(surrogates_->value()) : pipeline::RunConfig{}.surrogates;
    config.min_size = static_cast<std::size_t>(min_size_->value());
    config.jaccard = jaccard_->value();
    config.min_windows = static_cast<std::size_t>(min_windows_->value());
    config.backend = backend_->currentData().toString().toStdString();
    try {
        pipeline::validate(config);
    } catch (const UsageError& e) {
        QMessageBox::warning(this, windowTitle(), QString::fromStdString(e.what()));
        return;
    }
    config_ = std::move(config);
    QDialog::accept();
}

}  // namespace spikeminer::gui
