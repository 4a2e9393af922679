#pragma once

#include "loaded_recording.hpp"

#include <QMainWindow>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;

namespace spikeminer::gui {

class LoadWorker;
class RasterView;
class SummaryPanel;

/// The app window: a raster plot of the loaded recording, its summary beside it, and a
/// status bar that shows load progress with a Cancel button.
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
    void set_loading(bool loading);

    void on_progress(const QString& task, double fraction);
    void on_loaded(const LoadedRecording& recording);
    void on_failed(const QString& path, const QString& message);
    void on_cancelled(const QString& path);

    LoadWorker* worker_ = nullptr;
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
