#include "app_settings.hpp"

#include "picture_size.hpp"

#include "spikeminer/core/error.hpp"

#include <QFileInfo>
#include <QSettings>

namespace spikeminer::gui::settings {
namespace {

const QString kLastDir = QStringLiteral("paths/last_dir");
const QString kRecent = QStringLiteral("paths/recent");
const QString kRunConfig = QStringLiteral("run/config_json");
const QString kRowOrder = QStringLiteral("view/row_order");
const QString kPictureSize = QStringLiteral("picture/%1_size");
constexpr int kMostRecent = 8;

}  // namespace

QString last_dir() { return QSettings().value(kLastDir).toString(); }

void remember_dir(const QString& path) { QSettings().setValue(kLastDir, QFileInfo(path).absolutePath()); }

QStringList recent_files() { return QSettings().value(kRecent).toStringList(); }

void add_recent_file(const QString& path) {
    QStringList recent = recent_files();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMostRecent) recent.removeLast();
    QSettings().setValue(kRecent, recent);
}

pipeline::RunConfig run_config() {
    pipeline::RunConfig config;
    const QString json = QSettings().value(kRunConfig).toString();
    if (json.isEmpty()) return config;
    try {
        pipeline::apply_json(config, json.toStdString(), "the saved settings");
        // What the dialog does not show must pass too: a run is checked whole.
        pipeline::RunConfig checked = config;
        checked.simulate = "demo";
        checked.input.clear();
        pipeline::validate(checked);
    } catch (const Error&) {
        return {};
    }
    return config;
}

void set_run_config(const pipeline::RunConfig& config) { QSettings().setValue(kRunConfig, QString::fromStdString(pipeline::to_json(config))); }

int row_order() { return QSettings().value(kRowOrder, 0).toInt(); }

void set_row_order(int order) { QSettings().setValue(kRowOrder, order); }

QSize picture_size(const QString& view) {
    const QSize saved = QSettings().value(kPictureSize.arg(view)).toSize();
    return valid_picture_size(saved) ? saved : kDefaultPicture;
}

void set_picture_size(const QString& view, QSize size) { QSettings().setValue(kPictureSize.arg(view), size); }

}  // namespace spikeminer::gui::settings
