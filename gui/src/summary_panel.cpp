#include "summary_panel.hpp"

#include "raster_axis.hpp"

#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <optional>

namespace spikeminer::gui {
namespace {

/// A table cell shown as text but sorted by a number.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value) : QTableWidgetItem(text), value_(value) {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        const auto* number = dynamic_cast<const NumberItem*>(&other);
        return number != nullptr ? value_ < number->value_ : QTableWidgetItem::operator<(other);
    }

private:
    double value_;
};

constexpr int kFileNameWidth = 180;  // pixels

QString rate(double hz) { return QStringLiteral("%1 Hz").arg(hz, 0, 'g', 4); }

// `value` as a tree under `parent`: objects and arrays as branches, the rest as leaves.
void add_json(QTreeWidgetItem* parent, const QString& name, const QJsonValue& value) {
    auto* item = new QTreeWidgetItem(parent, {name});
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) add_json(item, it.key(), it.value());
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        item->setText(1, QObject::tr("%1 items").arg(array.size()));
        for (int i = 0; i < array.size(); ++i) add_json(item, QString::number(i), array[i]);
    } else {
        item->setText(1, value.isNull() ? QStringLiteral("null") : value.toVariant().toString());
    }
}

// A metadata value that is a JSON object or array (a simulation's settings), else none.
std::optional<QJsonDocument> json_of(const std::string& text) {
    if (text.empty() || (text.front() != '{' && text.front() != '[')) return std::nullopt;
    QJsonParseError error{};
    QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError) return std::nullopt;
    return document;
}

}  // namespace

SummaryPanel::SummaryPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    form_->setLabelAlignment(Qt::AlignLeft);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form_);

    neurons_ = new QTableWidget(0, 3, this);
    neurons_->setHorizontalHeaderLabels({tr("neuron"), tr("spikes"), tr("rate (Hz)")});
    neurons_->verticalHeader()->setVisible(false);
    neurons_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    neurons_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    neurons_->setSelectionBehavior(QAbstractItemView::SelectRows);
    neurons_->setAlternatingRowColors(true);
    neurons_->verticalHeader()->setDefaultSectionSize(neurons_->fontMetrics().height() + 4);
    layout->addWidget(neurons_, 1);
    details_ = new QTreeWidget(this);
    details_->setObjectName(QStringLiteral("settings tree"));
    details_->setColumnCount(2);
    details_->setHeaderLabels({tr("setting"), tr("value")});
    details_->setToolTip(tr("Structured metadata, such as the settings a simulation was made with"));
    details_->setVisible(false);
    layout->addWidget(details_, 1);
    add_row(tr("file"), tr("none"));
}

QLabel* SummaryPanel::add_row(const QString& name, const QString& value) {
    auto* label = new QLabel(value);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    form_->addRow(name, label);
    return label;
}

void SummaryPanel::set_recording(const LoadedRecording& recording) {
    while (form_->rowCount() > 0) form_->removeRow(0);
    const RecordingSummary& s = recording.summary;
    const auto& metadata = recording.trains->metadata();
    const auto format = metadata.find("source.format");

    // File names have no spaces to wrap at: elide them so the panel keeps its width.
    QLabel* file = add_row(tr("file"), fontMetrics().elidedText(QFileInfo(recording.path).fileName(), Qt::ElideMiddle,
                                                               kFileNameWidth));
    file->setWordWrap(false);
    file->setToolTip(recording.path);
    add_row(tr("format"), format != metadata.end() ? QString::fromStdString(format->second) : tr("unknown"));
    add_row(tr("tick"), QString::fromStdString(s.tick));
    add_row(tr("neurons"), tr("%1 (%2 with spikes)").arg(s.neurons).arg(s.active_neurons));
    add_row(tr("spikes"), QLocale().toString(static_cast<qulonglong>(s.spikes)));
    add_row(tr("span"), tr("%1 s .. %2 s").arg(s.start_s, 0, 'g', 6).arg(s.end_s, 0, 'g', 6));
    add_row(tr("duration"), tr("%1 (%2 s)").arg(format_duration(s.duration_s)).arg(s.duration_s, 0, 'g', 6));
    add_row(tr("rate"), tr("%1 mean per neuron\nmin %2, max %3").arg(rate(s.mean_rate_hz), rate(s.min_rate_hz), rate(s.max_rate_hz)));
    add_row(tr("duplicates"), tr("%1 (same neuron, same tick)").arg(s.duplicates));
    if (s.sorted_on_load) add_row(tr("note"), tr("the file was not in time order; spikes were sorted on load"));
    details_->clear();
    const auto add_tree = [this](const QString& name, const QJsonDocument& document) {
        auto* root = new QTreeWidgetItem(details_, {name});
        if (document.isObject()) {
            const QJsonObject object = document.object();
            for (auto it = object.begin(); it != object.end(); ++it) add_json(root, it.key(), it.value());
        } else {
            const QJsonArray array = document.array();
            for (int i = 0; i < array.size(); ++i) add_json(root, QString::number(i), array[i]);
        }
    };
    for (const auto& [key, value] : metadata) {
        if (key.starts_with("source.") || value.empty()) continue;
        if (const auto document = json_of(value)) {
            add_tree(QString::fromStdString(key), *document);
        } else {
            add_row(QString::fromStdString(key), QString::fromStdString(value));
        }
    }
    const auto& truth = recording.input != nullptr ? recording.input->recording.truth : std::nullopt;
    if (truth && details_->topLevelItemCount() == 0) {
        if (const auto document = json_of(truth->config_json)) add_tree(tr("simulation"), *document);
    }
    details_->setVisible(details_->topLevelItemCount() > 0);
    details_->resizeColumnToContents(0);

    neurons_->setSortingEnabled(false);
    neurons_->setRowCount(static_cast<int>(s.per_neuron.size()));
    for (int row = 0; row < neurons_->rowCount(); ++row) {
        const NeuronSummary& n = s.per_neuron[static_cast<std::size_t>(row)];
        // Sorting by label keeps file order (the dense index), not text order.
        neurons_->setItem(row, 0, new NumberItem(QString::fromStdString(n.label), row));
        neurons_->item(row, 0)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        neurons_->setItem(row, 1, new NumberItem(QString::number(n.spikes), static_cast<double>(n.spikes)));
        neurons_->setItem(row, 2, new NumberItem(QString::number(n.rate_hz, 'f', 3), n.rate_hz));
    }
    neurons_->setSortingEnabled(true);
    neurons_->sortByColumn(0, Qt::AscendingOrder);
}

}  // namespace spikeminer::gui
