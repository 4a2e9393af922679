#include "episodes_model.hpp"

#include <algorithm>

namespace spikeminer::gui {

EpisodesModel::EpisodesModel(QObject* parent) : QAbstractTableModel(parent) {}

void EpisodesModel::set_episodes(TrainsPtr trains, std::vector<mining::FrequentEpisode> episodes) {
    beginResetModel();
    trains_ = std::move(trains);
    episodes_ = trains_ != nullptr ? std::move(episodes) : std::vector<mining::FrequentEpisode>{};
    texts_.clear();
    for (const mining::FrequentEpisode& e : episodes_) texts_.push_back(QString::fromStdString(mining::format_episode(e.episode, *trains_)));
    endResetModel();
}

bool EpisodesModel::holds(int row, const QString& label) const {
    const std::string wanted = label.toStdString();
    const auto& neurons = episode(row).episode.neurons;
    return std::any_of(neurons.begin(), neurons.end(), [&](NeuronId n) { return trains_->label(n) == wanted; });
}

int EpisodesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(episodes_.size()); }

int EpisodesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : Columns; }

QVariant EpisodesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto row = static_cast<std::size_t>(index.row());
    const mining::FrequentEpisode& e = episodes_[row];
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == Text) return texts_[row];
    if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
    switch (index.column()) {
        case Text: return texts_[row];
        case Length: return static_cast<qulonglong>(e.episode.size());
        case Count: return static_cast<qulonglong>(e.count);
        case PAdjusted:
            if (!e.significance) return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant(2.0);
            return role == Qt::DisplayRole ? QVariant(QString::number(e.significance->p_adjusted, 'g', 3)) : QVariant(e.significance->p_adjusted);
        default: return {};
    }
}

QVariant EpisodesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Text: return tr("episode (delays in ms)");
        case Length: return tr("neurons");
        case Count: return tr("count");
        case PAdjusted: return tr("p (adjusted)");
        default: return {};
    }
}

EpisodeFilter::EpisodeFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(Qt::UserRole); }

void EpisodeFilter::set_filter(const QString& neuron, int min_length, qulonglong min_count) {
    neuron_ = neuron.trimmed();
    min_length_ = min_length;
    min_count_ = min_count;
    invalidateFilter();
}

bool EpisodeFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
    const auto* model = static_cast<const EpisodesModel*>(sourceModel());
    if (parent.isValid() || model == nullptr) return false;
    const mining::FrequentEpisode& e = model->episode(row);
    if (static_cast<int>(e.episode.size()) < min_length_ || e.count < min_count_) return false;
    return neuron_.isEmpty() || model->holds(row, neuron_);
}

}  // namespace spikeminer::gui
