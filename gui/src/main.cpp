// spikeminer-gui: the desktop app. `spikeminer-gui [FILE]` opens FILE at start.
#include "main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("spikeminer"));
    QApplication::setApplicationVersion(QStringLiteral(SPIKEMINER_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Repeating firing sequences and neuron assemblies in spike trains"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("spike file to open: CSV, text, NWB, spikeminer HDF5 or waverepo HDF5"));
    parser.process(app);

    spikeminer::gui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty()) window.open_file(parser.positionalArguments().front());
    return QApplication::exec();
}
