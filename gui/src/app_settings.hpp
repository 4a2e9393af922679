#pragma once
// What the desktop app remembers between sessions (QSettings): the folder last used, the
// recent files, the run dialog's settings, the raster's row order and the size of each
// view's saved pictures.

#include "spikeminer/app/pipeline/run_config.hpp"

#include <QSize>
#include <QString>
#include <QStringList>

namespace spikeminer::gui::settings {

/// The folder of the file last opened or saved ("" at first).
QString last_dir();
/// Remembers the folder of `path`.
void remember_dir(const QString& path);

/// The files opened last, newest first.
QStringList recent_files();
/// Puts `path` first among the recent files (at most 8).
void add_recent_file(const QString& path);

/// The run dialog's last settings over the defaults; settings this program does not take
/// or that do not pass as a run's (from an older or newer one) give the defaults.
pipeline::RunConfig run_config();
void set_run_config(const pipeline::RunConfig& config);

/// The raster's row order (RasterView::RowOrder as an int; 0 at first).
int row_order();
void set_row_order(int order);

/// The size (pixels) last chosen for a picture of `view` (raster, graph or timeline);
/// kDefaultPicture at first, or when what was saved is no valid size.
QSize picture_size(const QString& view);
void set_picture_size(const QString& view, QSize size);

}  // namespace spikeminer::gui::settings
