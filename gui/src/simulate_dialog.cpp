#include "simulate_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace spikeminer::gui {

SimulateDialog::SimulateDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Simulate a recording"));
    scenario_ = new QComboBox(this);
    scenario_->addItem(tr("demo: 100 neurons, assemblies that come and go, two chains (4 min)"), QStringLiteral("demo"));
    scenario_->addItem(tr("assemblies: 100 neurons, six assemblies, up/down states (1 min)"), QStringLiteral("assemblies"));
    scenario_->addItem(tr("paper: 64 neurons at 20 Hz, four firing chains (1 min)"), QStringLiteral("paper"));
    scenario_->addItem(tr("large: 1,000 neurons, 20 chains, 20 assemblies (1 min)"), QStringLiteral("large"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(1);
    seed_->setToolTip(tr("The same seed gives the same spikes on any machine"));
    duration_ = new QDoubleSpinBox(this);
    duration_->setRange(0, 24 * 3600);
    duration_->setDecimals(1);
    duration_->setSpecialValueText(tr("the scenario's"));
    duration_->setSuffix(tr(" s"));
    duration_->setToolTip(tr("The simulation's length; the assemblies' active stretches keep their places"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Scenario"), scenario_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Length"), duration_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

pipeline::RunConfig SimulateDialog::config() const {
    pipeline::RunConfig config;
    config.simulate = scenario_->currentData().toString().toStdString();
    config.seed = static_cast<std::uint64_t>(seed_->value());
    if (duration_->value() > 0) config.duration_s = duration_->value();
    return config;
}

}  // namespace spikeminer::gui
