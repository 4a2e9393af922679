#include "device_dialog.hpp"

#include "spikeminer/core/device_query.hpp"

#include <QApplication>
#include <QMessageBox>

namespace spikeminer::gui {
namespace {

QString gib(std::size_t bytes) { return QString::number(static_cast<double>(bytes) / (1 << 30), 'f', 1); }

QString describe(const DeviceReport& report) {
    const QString compiled = report.cuda_compiled ? QObject::tr("This build has CUDA engines.")
                                                  : QObject::tr("All work runs on the CPU.");
    if (report.devices.empty()) {
        return QObject::tr("<p><b>CUDA devices: none</b></p><p>%1</p><p>%2</p>")
            .arg(QString::fromStdString(report.status).toHtmlEscaped(), compiled);
    }
    QString rows;
    for (const DeviceInfo& d : report.devices) {
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td><td align=right>%4 GiB (%5 free)</td>"
                               "<td align=right>%6.%7</td></tr>")
                    .arg(d.index)
                    .arg(QString::fromStdString(d.name).toHtmlEscaped())
                    .arg(d.multiprocessors)
                    .arg(gib(d.total_memory), gib(d.free_memory))
                    .arg(d.compute_major)
                    .arg(d.compute_minor);
    }
    return QObject::tr("<p><b>CUDA devices: %1</b></p>"
                       "<table cellspacing=6><tr><th>#</th><th>name</th><th>multiprocessors</th><th>memory</th>"
                       "<th>compute</th></tr>%2</table><p>%3</p>")
        .arg(report.devices.size())
        .arg(rows, compiled);
}

}  // namespace

void show_device_dialog(QWidget* parent) {
    // The first CUDA call may take a moment while the driver starts.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const DeviceReport report = query_devices();
    QApplication::restoreOverrideCursor();
    QMessageBox box(QMessageBox::Information, QObject::tr("Devices"), describe(report), QMessageBox::Ok, parent);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

}  // namespace spikeminer::gui
