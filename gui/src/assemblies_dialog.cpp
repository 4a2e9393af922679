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
    window_ms_ = number_box(ms(start.cofiring.window), 0, 1000, 3, this);
    baseline_ms_ = number_box(ms(start.cofiring.baseline), 0, 10000, 3, this);
    min_count_ = new QSpinBox(this);
    min_count_->setRange(1, 1'000'000'000);
    min_count_->setValue(static_cast<int>(start.cofiring.min_count));
    min_ratio_ = number_box(start.cofiring.min_ratio, 0, 1000, 2, this);
    min_z_ = number_box(start.cofiring.min_z, 0, 1000, 1, this);
    min_size_ = new QSpinBox(this);
    min_size_->setRange(2, 1000);
    min_size_->setValue(static_cast<int>(start.min_size));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Coincidence window (ms)"), window_ms_);
    form->addRow(tr("Chance from lags up to (ms, 0: constant rates)"), baseline_ms_);
    form->addRow(tr("At least this many coincidences"), min_count_);
    form->addRow(tr("At least this many times chance"), min_ratio_);
    form->addRow(tr("At least this many s.d. above chance"), min_z_);
    form->addRow(tr("Smallest assembly (neurons)"), min_size_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

AssemblySearch AssembliesDialog::search() const {
    AssemblySearch search;
    search.cofiring.window = time_base_.from_seconds(window_ms_->value() / 1e3);
    search.cofiring.baseline = time_base_.from_seconds(baseline_ms_->value() / 1e3);
    search.cofiring.min_count = static_cast<std::uint64_t>(min_count_->value());
    search.cofiring.min_ratio = min_ratio_->value();
    search.cofiring.min_z = min_z_->value();
    search.min_size = static_cast<std::size_t>(min_size_->value());
    return search;
}

}  // namespace spikeminer::gui
