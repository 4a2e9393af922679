#include "assemblies_dialog.hpp"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace spikeminer::gui {
namespace {

QDoubleSpinBox* number_box(double value, double low, double high, int decimals, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setValue(value);
    return box;
}

}  // namespace

AssembliesDialog::AssembliesDialog(const TimeBase& time_base, QWidget* parent) : QDialog(parent), time_base_(time_base) {
    setWindowTitle(tr("Find assemblies"));
    const AssemblySearch start = default_assembly_search(time_base);
    const auto ms = [&time_base](Tick ticks) { return 1e3 * time_base.to_seconds(ticks); };
    const mining::CofiringLags& lags = start.cofiring.lags;
    sync_ms_ = number_box(ms(lags.sync), 0, 1000, 3, this);
    baseline_from_ms_ = number_box(ms(lags.baseline.lo), 0, 10000, 3, this);
    baseline_to_ms_ = number_box(ms(lags.baseline.hi), 0, 10000, 3, this);
    q_ = number_box(start.cofiring.test.q, 1e-6, 1, 6, this);
    min_size_ = new QSpinBox(this);
    min_size_->setRange(2, 1000);
    min_size_->setValue(static_cast<int>(start.min_size));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Fire together within (ms, either way)"), sync_ms_);
    form->addRow(tr("Chance from lags of (ms)"), baseline_from_ms_);
    form->addRow(tr("... to (ms)"), baseline_to_ms_);
    form->addRow(tr("False discovery rate q"), q_);
    form->addRow(tr("Smallest assembly (neurons)"), min_size_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

AssemblySearch AssembliesDialog::search() const {
    AssemblySearch search = default_assembly_search(time_base_);
    mining::CofiringLags& lags = search.cofiring.lags;
    lags.sync = time_base_.from_seconds(sync_ms_->value() / 1e3);
    lags.baseline = {time_base_.from_seconds(baseline_from_ms_->value() / 1e3), time_base_.from_seconds(baseline_to_ms_->value() / 1e3)};
    search.cofiring.test.q = q_->value();
    search.min_size = static_cast<std::size_t>(min_size_->value());
    return search;
}

}  // namespace spikeminer::gui
