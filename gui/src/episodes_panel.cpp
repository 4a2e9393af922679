#include "episodes_panel.hpp"

#include "episodes_model.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace spikeminer::gui {

EpisodesPanel::EpisodesPanel(QWidget* parent) : QWidget(parent) {
    model_ = new EpisodesModel(this);
    filter_ = new EpisodeFilter(this);
    filter_->setSourceModel(model_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("episodes"));
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // the given order until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(EpisodesModel::Text, QHeaderView::Stretch);
    table_->setWordWrap(false);
    table_->setToolTip(tr("Select an episode to see its non-overlapped occurrences over the spikes"));
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &EpisodesPanel::on_selection);

    neuron_ = new QLineEdit(this);
    neuron_->setPlaceholderText(tr("any neuron"));
    neuron_->setToolTip(tr("Only the episodes that hold the neuron of this label"));
    min_length_ = new QSpinBox(this);
    min_length_->setRange(1, 64);
    min_length_->setPrefix(tr("≥ "));
    min_length_->setToolTip(tr("Only episodes of at least this many neurons"));
    min_count_ = new QSpinBox(this);
    min_count_->setRange(0, 1'000'000'000);
    min_count_->setPrefix(tr("≥ "));
    min_count_->setToolTip(tr("Only episodes that occur at least this many times"));
    connect(neuron_, &QLineEdit::textChanged, this, &EpisodesPanel::apply_filter);
    connect(min_length_, &QSpinBox::valueChanged, this, &EpisodesPanel::apply_filter);
    connect(min_count_, &QSpinBox::valueChanged, this, &EpisodesPanel::apply_filter);

    auto* filters = new QHBoxLayout;
    filters->addWidget(neuron_, 1);
    filters->addWidget(min_length_);
    filters->addWidget(min_count_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(table_, 1);
}

void EpisodesPanel::set_episodes(TrainsPtr trains, std::vector<mining::FrequentEpisode> episodes) {
    if (trains == nullptr) {  // another recording: its labels and counts are not these
        const QSignalBlocker neuron(neuron_), length(min_length_), count(min_count_);
        neuron_->clear();
        min_length_->setValue(min_length_->minimum());
        min_count_->setValue(0);
        apply_filter();
    }
    // Longest first, then the most frequent.
    std::stable_sort(episodes.begin(), episodes.end(), [](const auto& a, const auto& b) {
        return a.episode.size() != b.episode.size() ? a.episode.size() > b.episode.size() : a.count > b.count;
    });
    model_->set_episodes(std::move(trains), std::move(episodes));
    table_->sortByColumn(-1, Qt::AscendingOrder);
    emit episode_selected(std::nullopt);
}

int EpisodesPanel::shown() const { return filter_->rowCount(); }

void EpisodesPanel::apply_filter() {
    filter_->set_filter(neuron_->text(), min_length_->value(), static_cast<qulonglong>(min_count_->value()));
}

void EpisodesPanel::on_selection() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        emit episode_selected(std::nullopt);
        return;
    }
    emit episode_selected(model_->episode(filter_->mapToSource(rows.front()).row()).episode);
}

}  // namespace spikeminer::gui
