#pragma once

#include "loaded_recording.hpp"

#include "spikeminer/mining/mine.hpp"

#include <QWidget>

#include <optional>

class QLineEdit;
class QSpinBox;
class QTableView;

namespace spikeminer::gui {

class EpisodeFilter;
class EpisodesModel;

/// The frequent episodes in a table that sorts by any column (longest, then most frequent,
/// before any click) and filters by a neuron's label, a least length and a least count.
/// Selecting a row hands its episode on (to draw its occurrences).
class EpisodesPanel : public QWidget {
    Q_OBJECT

public:
    explicit EpisodesPanel(QWidget* parent = nullptr);

    /// Shows `episodes` of `trains`; none (and no filter) for null trains.
    void set_episodes(TrainsPtr trains, std::vector<mining::FrequentEpisode> episodes);
    /// The rows shown (after the filter).
    [[nodiscard]] int shown() const;

signals:
    /// The selected episode; none when the selection is cleared.
    void episode_selected(const std::optional<mining::Episode>& episode);

private:
    void apply_filter();
    void on_selection();

    EpisodesModel* model_ = nullptr;
    EpisodeFilter* filter_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* neuron_ = nullptr;
    QSpinBox* min_length_ = nullptr;
    QSpinBox* min_count_ = nullptr;
};

}  // namespace spikeminer::gui
