// bench_gui: the desktop app's interactive speed, offscreen (no display needed), on the
// large scenario (1,000 neurons): the raster's repaint at 1920x1080 with all its spikes in
// view, one step of the time slider (the window's graph rebuilt from the edge changes, the
// graph view and the timeline repainted), the longest stall of the window's event loop
// while the pipeline runs on the worker thread, and how soon Cancel ends a run. Prints a Markdown table (bench/RESULTS.md).
#include "assembly_timeline.hpp"
#include "bench_timing.hpp"
#include "graph_view.hpp"
#include "main_window.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "background_task.hpp"

#include <CLI/CLI.hpp>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace spikeminer;

namespace {

struct Times {
    double median_ms = 0;
    double max_ms = 0;
};

Times summarize(const std::vector<double>& ms) { return {bench::median(ms), *std::max_element(ms.begin(), ms.end())}; }

// Runs the event loop until `window` shows a run, `tick_ms` apart; returns the longest gap
// between ticks (the longest the window went without handling events).
double wait_for_run(gui::MainWindow& window, int tick_ms) {
    QEventLoop loop;
    QObject::connect(&window, &gui::MainWindow::run_shown, &loop, &QEventLoop::quit);
    QObject::connect(&window, &gui::MainWindow::task_failed, &loop, [&loop](const QString& message) {
        std::fprintf(stderr, "bench_gui: %s\n", message.toLocal8Bit().constData());
        loop.exit(1);
    });
    QElapsedTimer since;
    double longest = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        longest = std::max(longest, static_cast<double>(since.nsecsElapsed()) * 1e-6);
        since.restart();
    });
    since.start();
    ticker.start(tick_ms);
    if (loop.exec() != 0) std::exit(1);
    return longest;
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication qt(argc, argv);
    CLI::App app{"bench_gui: the desktop app's repaint, slider step and event-loop stall"};
    double minutes = 7.5;
    std::string backend = "auto";
    app.add_option("--minutes", minutes, "the large scenario's length (7.5 min: about 10 million spikes)")->check(CLI::PositiveNumber);
    app.add_option("--backend", backend, "the pipeline's backend: auto, cpu, gpu");
    app.add_flag("--gpu-check")->description("taken for scripts/gpu-check.sh, which passes it to every benchmark: its run is the defaults");
    CLI11_PARSE(app, argc, argv);

    gui::MainWindow window;
    window.resize(1920, 1080);
    window.show();
    pipeline::RunConfig config;
    config.simulate = "large";
    config.duration_s = minutes * 60;
    config.backend = backend;
    window.simulate(config);
    {
        const gui::BackgroundTask& task = *window.findChild<gui::BackgroundTask*>();
        QEventLoop loop;
        QObject::connect(&task, &gui::BackgroundTask::succeeded, &loop, &QEventLoop::quit);
        QObject::connect(&task, &gui::BackgroundTask::failed, &loop, [] { std::exit(1); });
        if (task.busy()) loop.exec();
    }
    const std::size_t spikes = window.loaded()->summary.spikes;
    // Cancel: a run cancelled at 0.5 s, 1 s, ... into it (every stage in turn), each timed
    // from cancel() to the task's end.
    gui::BackgroundTask& task = *window.findChild<gui::BackgroundTask*>();
    std::vector<double> cancels;
    for (int k = 1; k <= 8; ++k) {
        window.run_pipeline(config);
        QEventLoop loop;
        QElapsedTimer since;
        QTimer::singleShot(500 * k, &loop, [&] {
            since.start();
            task.cancel();
        });
        QObject::connect(&task, &gui::BackgroundTask::cancelled, &loop, &QEventLoop::quit);
        QObject::connect(&task, &gui::BackgroundTask::succeeded, &loop, &QEventLoop::quit);  // done before the cancel
        loop.exec();
        if (since.isValid()) cancels.push_back(static_cast<double>(since.nsecsElapsed()) * 1e-6);
    }
    window.run_pipeline(config);
    const double stall_ms = wait_for_run(window, 5);

    // The raster alone at 1920x1080, every spike in view.
    gui::RasterView& raster = *window.raster();
    raster.resize(1920, 1080);
    raster.fit();
    QImage frame(raster.size(), QImage::Format_RGB32);
    std::vector<double> repaint;
    for (int k = 0; k < 15; ++k) repaint.push_back(1e3 * bench::seconds_of([&] { raster.render(&frame); }));

    // Slider steps: each moves the graph view and the timeline, rendered as the screen would.
    gui::PipelinePanel& panel = *window.pipeline_panel();
    QImage graph_frame(panel.graph()->size(), QImage::Format_RGB32);
    auto* timeline = window.findChild<gui::AssemblyTimeline*>();
    QImage timeline_frame(timeline->size().boundedTo(QSize(1920, 1080)), QImage::Format_RGB32);
    const auto windows = static_cast<std::size_t>(panel.findChild<QSlider*>(QStringLiteral("window slider"))->maximum()) + 1;
    if (windows < 2) {
        std::fprintf(stderr, "bench_gui: %.1f minutes give fewer than two windows to step through\n", minutes);
        return 1;
    }
    std::vector<double> steps;
    panel.show_window(windows - 1);  // each step below moves the slider, from the last window to the first
    for (std::size_t w = 0; w < windows; ++w) {
        steps.push_back(1e3 * bench::seconds_of([&] {
            panel.show_window(w);
            panel.graph()->render(&graph_frame);
            timeline->render(&timeline_frame, {}, QRegion(0, 0, timeline_frame.width(), timeline_frame.height()));
        }));
    }
    const Times r = summarize(repaint);
    const Times s = summarize(steps);
    std::printf("bench_gui: the large scenario, %.1f min (%zu spikes), backend %s, %zu windows\n\n", minutes, spikes, backend.c_str(), windows);
    std::printf("| what | median ms | max ms | target |\n|---|---:|---:|---|\n");
    std::printf("| raster repaint, 1920x1080, whole recording | %.1f | %.1f | < 50 ms |\n", r.median_ms, r.max_ms);
    std::printf("| slider step (graph rebuilt, graph view and timeline repainted) | %.2f | %.2f | < 50 ms |\n", s.median_ms, s.max_ms);
    std::printf("| longest event-loop stall while the pipeline ran | - | %.1f | < 100 ms |\n", stall_ms);
    if (!cancels.empty()) {
        const Times c = summarize(cancels);
        std::printf("| Cancel, from the click to the run's end (%zu runs cancelled 0.5-4 s in) | %.1f | %.1f | < 500 ms |\n", cancels.size(), c.median_ms,
                    c.max_ms);
    }
    return 0;
}
