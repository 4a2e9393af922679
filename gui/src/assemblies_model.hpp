#pragma once

#include "pipeline_run.hpp"

#include <QAbstractTableModel>

namespace spikeminer::gui {

/// The run's tracked assemblies as a table, one row each in result.assemblies' order:
/// id, size, first and last activation (s), windows, activations, the adjusted p-value
/// (with significance), members. Display text is formatted; Qt::UserRole holds the number
/// to sort by (the members' text for that column); the id column's decoration is the
/// assembly's colour.
class AssembliesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Id, Size, From, To, Active, Windows, Activations, PAdjusted, Members, Columns };

    explicit AssembliesModel(QObject* parent = nullptr);

    void set_run(RunPtr run);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RunPtr run_;
};

}  // namespace spikeminer::gui
