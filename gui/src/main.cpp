// spikeminer-gui: the desktop app. `spikeminer-gui [FILE]` opens FILE at start;
// `spikeminer-gui --demo` runs the demo in the window; with `--screenshot out.png` it then
// saves the window (or one view of it, `--view`) at the busiest co-firing window and
// quits (with QT_QPA_PLATFORM=offscreen it needs no display; the README's screenshots
// come from it); `--size WxH` draws the raster, graph or timeline as a figure of that many
// pixels instead.
#include "main_window.hpp"
#include "picture_size.hpp"
#include "pipeline_panel.hpp"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <optional>

namespace {

using spikeminer::gui::MainWindow;

// Shows the co-firing window with the most edges, then saves `view` of the window into
// `path` (at `size`, when given).
bool save_screenshot(MainWindow& window, const QString& view, const QString& path, std::optional<QSize> size) {
    window.pipeline_panel()->show_busiest_window();
    const QString error = window.save_picture(path, view, size);
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
                                 QStringLiteral("spike file to open: CSV, text, NWB, spikeminer HDF5 or waverepo HDF5, or a Kilosort / Phy folder"));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("simulate the demo scenario and run the pipeline on it"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("with --demo: save a picture of the window at its busiest co-firing window, then quit"),
                                        QStringLiteral("PNG"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("what --screenshot shows: window (default), raster, graph, timeline or panel; "
                                                 "an .svg path draws the first three as spikeminer run's figures"),
                                  QStringLiteral("VIEW"), QStringLiteral("window"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("with --screenshot and the raster, graph or timeline view: draw it as a figure of "
                                                 "WIDTHxHEIGHT pixels (each %1 to %2), as File > Save picture does")
                                      .arg(spikeminer::gui::kSmallestPicture)
                                      .arg(spikeminer::gui::kLargestPicture),
                                  QStringLiteral("WxH"));
    parser.addOptions({demo, screenshot, view, size});
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
    std::optional<QSize> picture_size;
    if (parser.isSet(size)) {
        picture_size = spikeminer::gui::parse_picture_size(parser.value(size));
        if (!picture_size) {
            std::fprintf(stderr, "spikeminer-gui: --size: give WIDTHxHEIGHT in pixels, each from %d to %d (as 1600x1000), not '%s'\n",
                         spikeminer::gui::kSmallestPicture, spikeminer::gui::kLargestPicture, parser.value(size).toLocal8Bit().constData());
            return 2;
        }
        if (!parser.isSet(screenshot)) {
            std::fprintf(stderr, "spikeminer-gui: --size needs --screenshot\n");
            return 2;
        }
        if (parser.value(view) == QStringLiteral("window") || parser.value(view) == QStringLiteral("panel")) {
            std::fprintf(stderr, "spikeminer-gui: --size: the window and the panel are saved as on screen; a size is for --view raster, graph or timeline\n");
            return 2;
        }
    }

    MainWindow window;
    window.show();
    if (parser.isSet(screenshot)) {
        QObject::connect(&window, &MainWindow::task_failed, &app, [](const QString& message) {
            std::fprintf(stderr, "spikeminer-gui: %s\n", message.toLocal8Bit().constData());
            QCoreApplication::exit(1);
        });
        QObject::connect(&window, &MainWindow::run_shown, &app, [&window, &parser, &screenshot, &view, picture_size] {
            QCoreApplication::exit(save_screenshot(window, parser.value(view), parser.value(screenshot), picture_size) ? 0 : 1);
        });
    }
    if (parser.isSet(demo)) {
        window.run_demo();
    } else if (!parser.positionalArguments().isEmpty()) {
        window.open_file(parser.positionalArguments().front());
    }
    return QApplication::exec();
}
