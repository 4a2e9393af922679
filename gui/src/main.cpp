// spikeminer-gui: the desktop app. `spikeminer-gui [FILE]` opens FILE at start;
// `spikeminer-gui --demo` runs the demo in the window; with `--screenshot out.png` it then
// saves the window (or one view of it, `--view`) at the busiest co-firing window and
// quits (with QT_QPA_PLATFORM=offscreen it needs no display; the README's screenshots
// come from it).
#include "main_window.hpp"
#include "pipeline_panel.hpp"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

namespace {

using spikeminer::gui::MainWindow;

// Shows the co-firing window with the most edges, then saves `view` of the window into `path`.
bool save_screenshot(MainWindow& window, const QString& view, const QString& path) {
    window.pipeline_panel()->show_busiest_window();
    const QString error = window.save_picture(path, view);
    if (!error.isEmpty()) std::fprintf(stderr, "spikeminer-gui: %s\n", error.toLocal8Bit().constData());
    return error.isEmpty();
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("spikeminer"));  // settings in ~/.config/spikeminer/
    QApplication::setApplicationName(QStringLiteral("spikeminer"));
    QApplication::setApplicationVersion(QStringLiteral(SPIKEMINER_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Repeating firing sequences and neuron assemblies in spike trains"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("spike file to open: CSV, text, NWB, spikeminer HDF5 or waverepo HDF5"));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("simulate the demo scenario and run the pipeline on it"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("with --demo: save a picture of the window at its busiest co-firing window, then quit"),
                                        QStringLiteral("PNG"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("what --screenshot shows: window (default), raster, graph, timeline or panel; "
                                                 "an .svg path draws the first three as spikeminer run's figures"),
                                  QStringLiteral("VIEW"), QStringLiteral("window"));
    parser.addOptions({demo, screenshot, view});
    parser.process(app);
    const QStringList views = {QStringLiteral("window"), QStringLiteral("raster"), QStringLiteral("graph"), QStringLiteral("timeline"),
                               QStringLiteral("panel")};
    if (parser.isSet(screenshot) && !parser.isSet(demo)) {
        std::fprintf(stderr, "spikeminer-gui: --screenshot needs --demo\n");
        return 2;
    }
    if (!views.contains(parser.value(view))) {
        std::fprintf(stderr, "spikeminer-gui: --view: choose window, raster, graph, timeline or panel\n");
        return 2;
    }

    MainWindow window;
    window.show();
    if (parser.isSet(screenshot)) {
        QObject::connect(&window, &MainWindow::task_failed, &app, [](const QString& message) {
            std::fprintf(stderr, "spikeminer-gui: %s\n", message.toLocal8Bit().constData());
            QCoreApplication::exit(1);
        });
        QObject::connect(&window, &MainWindow::run_shown, &app, [&window, &parser, &screenshot, &view] {
            QCoreApplication::exit(save_screenshot(window, parser.value(view), parser.value(screenshot)) ? 0 : 1);
        });
    }
    if (parser.isSet(demo)) {
        window.run_demo();
    } else if (!parser.positionalArguments().isEmpty()) {
        window.open_file(parser.positionalArguments().front());
    }
    return QApplication::exec();
}
