#include "assemblies_model.hpp"

#include "spikeminer/app/assembly_palette.hpp"

#include <QColor>
#include <QStringList>

namespace spikeminer::gui {

AssembliesModel::AssembliesModel(QObject* parent) : QAbstractTableModel(parent) {}

void AssembliesModel::set_run(RunPtr run) {
    beginResetModel();
    run_ = std::move(run);
    endResetModel();
}

int AssembliesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || run_ == nullptr ? 0 : static_cast<int>(run_->result.assemblies.size());
}

int AssembliesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : Columns; }

QVariant AssembliesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || run_ == nullptr || index.row() >= rowCount()) return {};
    const auto row = static_cast<std::size_t>(index.row());
    const pipeline::Assembly& a = run_->result.assemblies[row];
    const TimeBase& tb = run_->trains().time_base();
    if (role == Qt::DecorationRole && index.column() == Id) return QColor(QString::fromLatin1(assembly_colour(row)));
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Members ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
    const bool display = role == Qt::DisplayRole;
    switch (index.column()) {
        case Id: return static_cast<qulonglong>(a.track.id);
        case Size: return static_cast<qulonglong>(a.members.size());
        case From: return display ? QVariant(QString::number(tb.to_seconds(a.span.start), 'f', 2)) : QVariant(tb.to_seconds(a.span.start));
        case To: return display ? QVariant(QString::number(tb.to_seconds(a.span.end), 'f', 2)) : QVariant(tb.to_seconds(a.span.end));
        case Active: {  // its active periods; sorted by the time active in all
            QStringList periods;
            double total = 0;
            for (const TimeSpan& p : a.active) {
                periods << QStringLiteral("%1–%2").arg(tb.to_seconds(p.start), 0, 'f', 1).arg(tb.to_seconds(p.end), 0, 'f', 1);
                total += tb.to_seconds(p.end) - tb.to_seconds(p.start);
            }
            return display ? QVariant(periods.join(QStringLiteral(", "))) : QVariant(total);
        }
        case Windows: return static_cast<qulonglong>(a.track.windows.size());
        case Activations: return static_cast<qulonglong>(a.activations.size());
        case PAdjusted:
            if (!a.significance) return display ? QVariant(QStringLiteral("–")) : QVariant(2.0);  // untested last when sorted
            return display ? QVariant(QString::number(a.significance->p_adjusted, 'g', 3)) : QVariant(a.significance->p_adjusted);
        case Members: {
            QStringList labels;
            for (const NeuronId n : a.members) labels << QString::fromStdString(run_->trains().label(n));
            return labels.join(QLatin1Char(' '));
        }
        default: return {};
    }
}

QVariant AssembliesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Id: return tr("assembly");
        case Size: return tr("size");
        case From: return tr("from (s)");
        case To: return tr("to (s)");
        case Active: return tr("active (s)");
        case Windows: return tr("windows");
        case Activations: return tr("activations");
        case PAdjusted: return tr("p (adjusted)");
        case Members: return tr("members");
        default: return {};
    }
}

}  // namespace spikeminer::gui
