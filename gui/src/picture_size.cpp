#include "picture_size.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QSpinBox>

namespace spikeminer::gui {

bool valid_picture_size(QSize size) {
    const auto in_range = [](int side) { return side >= kSmallestPicture && side <= kLargestPicture; };
    return in_range(size.width()) && in_range(size.height());
}

std::optional<QSize> parse_picture_size(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) return std::nullopt;
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    return valid_picture_size(size) ? std::optional<QSize>(size) : std::nullopt;
}

PictureSizeDialog::PictureSizeDialog(const QString& what, QSize start, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Size of the %1").arg(what));
    const auto side = [this](int value) {
        auto* box = new QSpinBox(this);
        box->setRange(kSmallestPicture, kLargestPicture);
        box->setSingleStep(100);
        box->setSuffix(tr(" px"));
        box->setValue(value);
        return box;
    };
    width_ = side(start.width());
    height_ = side(start.height());
    auto* form = new QFormLayout(this);
    auto* note = new QLabel(tr("The figure is laid out to fill this size: a PNG has this many pixels, an SVG this size in px."), this);
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(tr("Width"), width_);
    form->addRow(tr("Height"), height_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QSize PictureSizeDialog::picture_size() const { return {width_->value(), height_->value()}; }

}  // namespace spikeminer::gui
