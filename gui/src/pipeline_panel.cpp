#include "pipeline_panel.hpp"

#include "assemblies_model.hpp"
#include "assembly_timeline.hpp"
#include "graph_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace spikeminer::gui {

PipelinePanel::PipelinePanel(QWidget* parent) : QWidget(parent) {
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("window slider"));
    slider_->setToolTip(tr("Step through the co-firing windows (arrow keys, Page Up/Down, Home/End)"));
    slider_->setEnabled(false);
    window_label_ = new QLabel(tr("no run"), this);
    window_label_->setMinimumWidth(260);
    connect(slider_, &QSlider::valueChanged, this, &PipelinePanel::on_slider);

    graph_ = new GraphView(this);
    timeline_ = new AssemblyTimeline(this);
    auto* timeline_scroll = new QScrollArea(this);
    timeline_scroll->setWidget(timeline_);
    timeline_scroll->setWidgetResizable(true);
    connect(timeline_, &AssemblyTimeline::clicked, this, [this](int assembly, int window) {
        if (window >= 0) show_window(static_cast<std::size_t>(window));
        select_assembly(assembly >= 0 ? std::optional<std::size_t>(static_cast<std::size_t>(assembly)) : std::nullopt);
    });

    model_ = new AssembliesModel(this);
    sorted_ = new QSortFilterProxyModel(this);
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(Qt::UserRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("assemblies table"));
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(AssembliesModel::Id, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &PipelinePanel::on_table_selection);

    // The timeline and the table share the right column evenly: every assembly's activity
    // through time in view beside its row.
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(timeline_scroll);
    right->addWidget(table_);
    right->setChildrenCollapsible(false);
    right->setSizes({1000, 1000});
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(graph_);
    split->addWidget(right);
    // The graph takes two thirds of the width, at first (the splitter keeps these sizes'
    // proportion when it gets its width) and as the panel grows: its labels need the room
    // more than the timeline and the table do; neither side collapses to nothing.
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setSizes({2000, 1000});

    auto* colouring = new QComboBox(this);
    colouring->setObjectName(QStringLiteral("colour by"));
    colouring->addItem(tr("Colour by assembly"), static_cast<int>(GraphView::Colouring::Assemblies));
    colouring->addItem(tr("Colour by component"), static_cast<int>(GraphView::Colouring::Components));
    connect(colouring, &QComboBox::currentIndexChanged, this, [this, colouring] {
        graph_->set_colouring(static_cast<GraphView::Colouring>(colouring->currentData().toInt()));
    });

    auto* row = new QHBoxLayout;
    row->addWidget(slider_, 1);
    row->addWidget(window_label_);
    row->addWidget(colouring);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(split, 1);
}

PipelinePanel::~PipelinePanel() { disconnect(table_->selectionModel(), nullptr, this, nullptr); }

void PipelinePanel::set_run(RunPtr run) {
    run_ = std::move(run);
    selected_.reset();
    graph_->set_run(run_);
    timeline_->set_run(run_);
    model_->set_run(run_);
    const int windows = run_ == nullptr ? 0 : static_cast<int>(run_->result.windows.size());
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, windows - 1));
    slider_->setValue(0);
    slider_->setPageStep(std::max(1, windows / 20));
    slider_->setEnabled(windows > 0);
    if (windows > 0) {
        on_slider(0);
    } else {
        window_label_->setText(run_ == nullptr ? tr("no run") : tr("no windows"));
    }
}

std::size_t PipelinePanel::window() const { return graph_->window(); }

void PipelinePanel::show_window(std::size_t w) { slider_->setValue(static_cast<int>(w)); }

void PipelinePanel::show_busiest_window() {
    if (run_ == nullptr || run_->result.windows.empty()) return;
    const auto& windows = run_->result.windows;
    const auto busiest = std::max_element(windows.begin(), windows.end(), [](const auto& a, const auto& b) { return a.edges < b.edges; });
    show_window(static_cast<std::size_t>(busiest - windows.begin()));
}

void PipelinePanel::on_slider(int value) {
    if (run_ == nullptr || run_->result.windows.empty()) return;
    const auto w = static_cast<std::size_t>(value);
    graph_->set_window(w);
    timeline_->set_window(w);
    const pipeline::WindowSummary& window = run_->result.windows[w];
    const TimeBase& tb = run_->trains().time_base();
    const double start = tb.to_seconds(window.span.start);
    const double end = tb.to_seconds(window.span.end);
    window_label_->setText(tr("window %1 of %2: %3–%4 s").arg(w + 1).arg(run_->result.windows.size()).arg(start, 0, 'f', 1).arg(end, 0, 'f', 1));
    emit window_changed(start, end);
}

void PipelinePanel::select_assembly(std::optional<std::size_t> a) {
    if (run_ == nullptr || (a && *a >= run_->result.assemblies.size())) a.reset();
    if (a == selected_) return;
    selected_ = a;
    graph_->set_selected_assembly(a);
    timeline_->set_selected_assembly(a);
    {
        const QSignalBlocker block(table_->selectionModel());
        table_->clearSelection();
        if (a) {
            const QModelIndex at = sorted_->mapFromSource(model_->index(static_cast<int>(*a), 0));
            table_->selectRow(at.row());
            table_->scrollTo(at);
        }
    }
    emit assembly_selected(a ? static_cast<int>(*a) : -1);
}

void PipelinePanel::on_table_selection() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        select_assembly(std::nullopt);
        return;
    }
    const auto a = static_cast<std::size_t>(sorted_->mapToSource(rows.front()).row());
    select_assembly(a);
    // Show the assembly: the slider goes to its first window when the one shown is not its.
    const auto& windows = run_->result.assemblies[a].track.windows;
    if (!windows.empty() && !std::binary_search(windows.begin(), windows.end(), window())) {
        show_window(windows.front());
    }
}

}  // namespace spikeminer::gui
