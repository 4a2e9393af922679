#include "live_dialog.hpp"

#include "app_settings.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace spikeminer::gui {
namespace {

// A line edit with a button beside it that fills it from a file dialog.
QWidget* with_browse(QLineEdit* edit, const QString& button, QWidget* parent, const std::function<QString()>& choose) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* browse = new QPushButton(button, row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, choose] {
        const QString chosen = choose();
        if (!chosen.isEmpty()) edit->setText(chosen);
    });
    return row;
}

}  // namespace

LiveDialog::LiveDialog(QWidget* parent) : QDialog(parent), source_(new QLineEdit(this)), folder_(new QLineEdit(this)) {
    setWindowTitle(tr("Connect to a live source"));
    source_->setPlaceholderText(tr("a growing file (unit,time_s lines), or tcp://HOST:PORT"));
    folder_->setPlaceholderText(tr("a new or empty folder"));
    auto* form = new QFormLayout;
    form->addRow(tr("Spikes from:"), with_browse(source_, tr("File…"), this, [this] {
                     return QFileDialog::getOpenFileName(this, tr("A file still being written"), settings::last_dir());
                 }));
    form->addRow(tr("Results into:"), with_browse(folder_, tr("Folder…"), this, [this] {
                     return QFileDialog::getExistingDirectory(this, tr("A new or empty folder"), settings::last_dir());
                 }));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
}

QString LiveDialog::source() const { return source_->text().trimmed(); }

QString LiveDialog::folder() const { return folder_->text().trimmed(); }

}  // namespace spikeminer::gui
