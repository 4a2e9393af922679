// gui_tests' main: one QApplication, on Qt's offscreen platform (no display needed), made
// before the tests and destroyed after them (a static one would outlive Qt's own globals).
// The window's settings (QSettings) go to a temporary folder, not the user's.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    const QTemporaryDir settings;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(settings.path()));
    const QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
