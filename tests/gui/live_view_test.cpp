// The window following a live session, headless: a recording in a file that is still
// followed scrolls into the raster, each search for the assemblies shows in the
// through-time panel and the assemblies list, paused the views hold while the session
// goes on, and disconnecting writes the final results (those `spikeminer run` gives).
#include "catch.hpp"

#include "main_window.hpp"
#include "pipeline_panel.hpp"
#include "raster_view.hpp"
#include "task_end.hpp"

#include "spikeminer/app/io/write_spikes.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "test_paths.hpp"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QListWidget>
#include <QSignalSpy>
#include <QThread>

#include <filesystem>

using namespace spikeminer;

namespace {

// Runs the event loop until `done` holds; fails after the hang guard (no time limit on the
// work: a slow or sanitized build only takes longer).
template <typename Done>
void wait_until(Done done) {
    constexpr qint64 kHangGuardMs = 30 * 60 * 1000;
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        REQUIRE(clock.elapsed() < kHangGuardMs);
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
}

}  // namespace

TEST_CASE("window: a live source scrolls into the raster, its searches into the panel, and disconnecting writes the final results",
          "[gui][live]") {
    const test::TempDir dir;
    pipeline::RunConfig simulated;
    simulated.simulate = "demo";
    simulated.seed = 4;
    simulated.duration_s = 90;
    const pipeline::Input input = pipeline::load_input(simulated, nullptr);
    io::write_spikes(dir.file("rec.csv"), input.recording.trains, io::SpikeFormat::Csv);

    gui::MainWindow window;
    QSignalSpy ended(&window, &gui::MainWindow::live_ended);
    live::LiveOptions options;
    options.config.backend = "cpu";
    options.refresh_s = 30;
    window.connect_live(QString::fromStdString(dir.file("rec.csv")), QString::fromStdString(dir.file("live")), options);
    CHECK_FALSE(test::action_named(window, QStringLiteral("&Open…"))->isEnabled());  // the session holds the window

    wait_until([&] { return window.pipeline_panel()->run() != nullptr; });
    const gui::RunPtr searched = window.pipeline_panel()->run();
    CHECK_FALSE(searched->result.windows.empty());
    CHECK(window.raster()->visible_span().second > window.raster()->visible_span().first);
    CHECK(window.findChild<QListWidget*>()->count() == static_cast<int>(searched->result.assemblies.size()));

    // Paused, the panel keeps the search shown while later ones come.
    window.set_live_paused(true);
    CHECK(test::action_named(window, QStringLiteral("&Pause live view"))->isChecked());
    QSignalSpy shown(&window, &gui::MainWindow::live_shown);
    window.disconnect_live();
    wait_until([&] { return ended.count() > 0; });
    CHECK(shown.count() == 0);
    CHECK(window.pipeline_panel()->run() == searched);
    window.set_live_paused(false);
    CHECK(shown.count() == 1);

    CHECK(ended.front().front().toString().contains(QStringLiteral("final results in")));
    CHECK(std::filesystem::exists(dir.file("live/final/assemblies.csv")));
    CHECK(test::action_named(window, QStringLiteral("&Open…"))->isEnabled());
}
