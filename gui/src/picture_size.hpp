#pragma once
// The size of a saved picture of the raster, the co-firing graph or the timeline (File >
// Save picture, `spikeminer-gui --size`): the user's choice in pixels, which the figure is
// laid out to fill, rather than the size the view happens to have on screen.

#include <QDialog>
#include <QSize>
#include <QString>

#include <optional>

class QSpinBox;

namespace spikeminer::gui {

/// A picture's least and greatest width and height, in pixels: room for the figures'
/// titles and axes, and an image that fits in memory (8000 x 8000 is 256 MB).
inline constexpr int kSmallestPicture = 400;
inline constexpr int kLargestPicture = 8000;
/// The size a picture starts at.
inline constexpr QSize kDefaultPicture{1600, 1000};

/// Whether `size` is one a picture may have.
bool valid_picture_size(QSize size);

/// "WIDTHxHEIGHT" in pixels (as 1600x1000; an X will do); none when it is not that or not a valid size.
std::optional<QSize> parse_picture_size(const QString& text);

/// Asks for a picture's width and height in pixels.
class PictureSizeDialog : public QDialog {
    Q_OBJECT

public:
    /// `what`: the picture's name in the title; `start`: the size shown at first.
    PictureSizeDialog(const QString& what, QSize start, QWidget* parent = nullptr);

    [[nodiscard]] QSize picture_size() const;

private:
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
};

}  // namespace spikeminer::gui
