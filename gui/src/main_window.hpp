#pragma once

#include "loaded_recording.hpp"

#include "spikeminer/app/find_assemblies.hpp"
#include "spikeminer/core/progress.hpp"
#include "spikeminer/mining/mine.hpp"

#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace spikeminer::gui {

class BackgroundTask;
class RasterView;
class SummaryPanel;

/// The app window: a raster plot of the loaded recording, its summary, its frequent
/// episodes (one selected: its occurrences drawn over the raster) and its assemblies
/// beside it, and a status bar that shows the progress of long work (loading a file,
/// mining, finding assemblies) with a Cancel button.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

public slots:
    /// Starts loading `path` on the worker thread; the shown recording stays until it succeeds.
    void open_file(const QString& path);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void create_menus();
    void create_status_bar();
    void choose_file();
    void find_assemblies();
    void mine_episodes();
    /// Runs `work` in the background: `label` in the status bar, `done` on the GUI thread
    /// when it succeeded, `failure` as the title of the message when it did not.
    void start_task(const QString& what, const QString& label, const QString& failure, std::function<void(Progress&)> work,
                    std::function<void()> done);
    void set_busy(bool busy);

    void on_progress(const QString& task, double fraction);
    void on_loaded(const LoadedRecording& recording);
    void on_assemblies(const AssembliesFound& found);
    void on_mined(const mining::MiningResult& result);
    void show_occurrences(int row);
    void on_failed(const QString& what, const QString& message);
    void on_cancelled(const QString& what);

    BackgroundTask* task_ = nullptr;
    std::function<void()> task_done_;
    QString task_failure_;
    QAction* assemblies_action_ = nullptr;
    QListWidget* assemblies_list_ = nullptr;
    QAction* mine_action_ = nullptr;
    QListWidget* episodes_list_ = nullptr;
    std::vector<mining::Episode> listed_episodes_;  // episodes_list_'s rows
    std::unique_ptr<mining::EpisodeCounter> occurrence_finder_;  // over shown_, made when it is loaded
    RasterView* raster_ = nullptr;
    SummaryPanel* summary_ = nullptr;
    QAction* open_action_ = nullptr;
    QLabel* hover_label_ = nullptr;
    QLabel* task_label_ = nullptr;
    QProgressBar* progress_bar_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    TrainsPtr shown_;  // the recording on screen; kept when a later load fails
    QString last_dir_;
};

}  // namespace spikeminer::gui
