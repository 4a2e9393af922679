#pragma once

#include "loaded_recording.hpp"
#include "pipeline_run.hpp"

#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/app/live/live_session.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/mine.hpp"

#include <QMainWindow>
#include <QSize>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace spikeminer::gui {

class BackgroundTask;
class LiveRunner;
class EpisodesPanel;
class PipelinePanel;
class RasterView;
class SummaryPanel;

/// The app window: a raster plot of the loaded recording (a file, or a simulation), its
/// summary, its frequent episodes (one selected: its occurrences drawn over the raster)
/// and its assemblies beside it; below, a pipeline run through time (PipelinePanel);
/// and a status bar that shows the progress of long work (loading, simulating, mining,
/// running the pipeline, exporting) with a Cancel button. Settings, the folder last used
/// and the recent files persist (QSettings).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

public slots:
    /// Starts loading `path` on the worker thread; the shown recording stays until it succeeds.
    void open_file(const QString& path);
    /// Opens a finished run's results.h5 on the worker thread and shows it with its
    /// recording (read again, or simulated again) when that is still there.
    void open_results(const QString& path);
    /// Simulates `source` (simulate, seed and duration_s set) on the worker thread and shows it.
    void simulate(const pipeline::RunConfig& source);
    /// Runs the pipeline on the shown recording with `config` on the worker thread; its
    /// result replaces the run shown when it succeeds.
    void run_pipeline(const pipeline::RunConfig& config);
    /// Writes the run shown into the new folder `dir` as `spikeminer run` does (tables,
    /// results.h5, figures) on the worker thread.
    void export_results(const QString& dir);
    /// Saves a picture of `view` (raster, graph, timeline, panel or window) into `path`.
    /// With `size` (pixels; raster, graph and timeline only, in a build with figures) it is
    /// the view's figure as `spikeminer run` draws it (the raster's visible span, the window
    /// shown) laid out to fill that size: a PNG of exactly that many pixels, or an SVG of
    /// that size in px. Without, a .png is the view as on screen and an .svg the figure at
    /// its own size. Returns what went wrong, or an empty string.
    QString save_picture(const QString& path, const QString& view, std::optional<QSize> size = std::nullopt);
    /// `spikeminer demo` in the window: simulates the demo scenario, then runs the pipeline
    /// with the demo's settings.
    void run_demo();
    /// Follows a live session (`spikeminer live`) on `source` (a growing file or a ZeroMQ
    /// endpoint) into the new or empty `folder`: the raster scrolls with the latest spikes,
    /// the through-time panel shows each search for the assemblies. Other work waits until
    /// it is disconnected.
    void connect_live(const QString& source, const QString& folder, const live::LiveOptions& options);
    /// Ends the live session: its final results are written, then live_ended().
    void disconnect_live();
    /// Holds the live views where they are (to look back) or, resumed, shows the latest.
    void set_live_paused(bool paused);

public:
    [[nodiscard]] RasterView* raster() const { return raster_; }
    /// The recording shown (null before the first load).
    [[nodiscard]] const LoadedRecording* loaded() const { return loaded_.get(); }
    [[nodiscard]] PipelinePanel* pipeline_panel() const { return pipeline_panel_; }

signals:
    /// A pipeline run is on screen (after run_pipeline or run_demo succeeded).
    void run_shown();
    /// A live session's latest spikes, or its latest search, are on screen.
    void live_shown();
    /// The live session ended (`summary`), or failed.
    void live_ended(const QString& summary);
    /// Background work failed with `message` (also shown in a message box).
    void task_failed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void create_menus();
    void create_status_bar();
    void choose_file();
    void choose_results();
    void choose_simulation();
    void choose_run();
    void choose_export();
    void choose_live_source();
    void show_live();  // the latest live views, unless paused
    void show_assemblies_of(const RunPtr& run);  // the raster's colours and the assemblies list
    void update_recent_files(const QString& opened);
    void find_assemblies();
    void mine_episodes();
    /// Runs `work` in the background: `label` in the status bar, `done` on the GUI thread
    /// when it succeeded, `failure` as the title of the message when it did not.
    void start_task(const QString& what, const QString& label, const QString& failure, std::function<void(Progress&)> work,
                    std::function<void()> done);
    void set_busy(bool busy);

    void on_progress(const QString& task, double fraction);
    void on_loaded(const LoadedRecording& recording);
    void on_run(const RunPtr& run);
    /// Marks result.assemblies[assembly]'s activations over the raster (-1: none).
    void show_activations(int assembly);
    void on_assemblies(const AssembliesFound& found);
    void on_mined(const mining::MiningResult& result);
    void show_occurrences(const std::optional<mining::Episode>& episode);
    void on_failed(const QString& what, const QString& message);
    void on_cancelled(const QString& what);

    BackgroundTask* task_ = nullptr;
    std::function<void()> task_done_;
    QString task_failure_;
    QAction* assemblies_action_ = nullptr;
    QListWidget* assemblies_list_ = nullptr;
    QAction* mine_action_ = nullptr;
    EpisodesPanel* episodes_ = nullptr;
    std::unique_ptr<mining::EpisodeCounter> occurrence_finder_;  // over shown_, made when it is loaded
    RasterView* raster_ = nullptr;
    SummaryPanel* summary_ = nullptr;
    QAction* open_action_ = nullptr;
    QAction* open_results_action_ = nullptr;
    QAction* simulate_action_ = nullptr;
    QAction* run_action_ = nullptr;
    QAction* export_action_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* picture_menu_ = nullptr;
    PipelinePanel* pipeline_panel_ = nullptr;
    QLabel* hover_label_ = nullptr;
    QLabel* task_label_ = nullptr;
    QProgressBar* progress_bar_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    TrainsPtr shown_;  // the recording on screen; kept when a later load fails
    std::shared_ptr<const LoadedRecording> loaded_;  // what shown_ came from
    RunPtr run_;       // the pipeline run on screen (of loaded_)
    LiveRunner* live_ = nullptr;
    QAction* connect_live_action_ = nullptr;
    QAction* disconnect_live_action_ = nullptr;
    QAction* pause_live_action_ = nullptr;
    bool live_paused_ = false;
    TrainsPtr live_spikes_;     // the latest, shown unless paused
    RunPtr live_run_;
    bool live_spikes_new_ = false;
    bool live_run_new_ = false;
};

}  // namespace spikeminer::gui
