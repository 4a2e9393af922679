#pragma once

#include "loaded_recording.hpp"

#include "spikeminer/mining/mine.hpp"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace spikeminer::gui {

/// Frequent episodes as a table, one row each in the mining's order: the episode with its
/// delays ("3 -(0,5]-> 7 -(5,10]-> 2"), its length in neurons, its count and, when tested,
/// its adjusted p-value. Qt::UserRole holds the number to sort by (the text for the
/// episode column).
class EpisodesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Text, Length, Count, PAdjusted, Columns };

    explicit EpisodesModel(QObject* parent = nullptr);

    /// Shows `episodes` of `trains` (which names the neurons); null trains: none.
    void set_episodes(TrainsPtr trains, std::vector<mining::FrequentEpisode> episodes);
    [[nodiscard]] const mining::FrequentEpisode& episode(int row) const { return episodes_[static_cast<std::size_t>(row)]; }
    /// True when the episode of `row` holds the neuron labelled `label`.
    [[nodiscard]] bool holds(int row, const QString& label) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    TrainsPtr trains_;
    std::vector<mining::FrequentEpisode> episodes_;
    std::vector<QString> texts_;  // per episode, formatted once
};

/// Keeps the episodes of at least `min_length` neurons and `min_count` occurrences that
/// hold the neuron labelled `neuron` (any, when empty).
class EpisodeFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit EpisodeFilter(QObject* parent = nullptr);
    void set_filter(const QString& neuron, int min_length, qulonglong min_count);

protected:
    [[nodiscard]] bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString neuron_;
    int min_length_ = 0;
    qulonglong min_count_ = 0;
};

}  // namespace spikeminer::gui
