// Reads a pipeline run's results.h5 (layout: results_h5.cpp and the README). The HDF5 part
// runs in a child process (run_isolated): there every table is read and checked for type
// and shape, and handed back as it is stored; here the tables are checked against each
// other (lengths, cumulative indexes, the ids they name) and turned back into the values
// the run produced.
#include "spikeminer/app/pipeline/results_file.hpp"

#include "../io/hdf5_isolated.hpp"
#include "../io/hdf5_read.hpp"
#include "../io/mining_h5.hpp"
#include "results_h5.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace spikeminer::pipeline {
namespace {

using io::detail::dataset_where;

constexpr std::int64_t kVersion = detail::kResultsVersion;

// The integer tables, in the order the child hands them back; pairs: int64 [n, 2].
struct IntegerTable {
    const char* path;
    bool pairs;
};
constexpr IntegerTable kIntegerTables[] = {
    {"/windows/span", true}, {"/windows/edges", false}, {"/windows/inserted", false}, {"/windows/erased", false},
    {"/windows/updated", false}, {"/windows/components", false}, {"/windows/largest_component", false},
    {"/windows/most_central", false}, {"/windows/clique_members", false}, {"/windows/clique_members_index", false},
    {"/windows/clique_window", false}, {"/windows/clique_assembly", false},
    {"/edge_changes/window", false}, {"/edge_changes/a", false}, {"/edge_changes/b", false}, {"/edge_changes/kind", false},
    {"/assemblies/id", false}, {"/assemblies/span", true}, {"/assemblies/members", false}, {"/assemblies/members_index", false},
    {"/assemblies/windows", false}, {"/assemblies/windows_index", false}, {"/assemblies/activations", false},
    {"/assemblies/activations_index", false}, {"/assemblies/active", false}, {"/assemblies/active_index", false},
    {"/events/window", false}, {"/events/assembly", false}, {"/events/other", false}, {"/events/kind", false},
};

// The root's string attributes, in SavedRun's order.
constexpr const char* kTextAttributes[] = {"input", "input_checksum", "config_json", "created_by"};

// What the child hands back: the file's tables as stored.
struct Tables {
    std::int64_t ticks_per_second = 0;
    std::vector<std::string> texts;  // kTextAttributes' values
    std::vector<std::string> labels;
    mining::MiningResult episodes;   // already checked by receive_mining_group
    std::map<std::string, std::vector<std::int64_t>> integers;
    std::vector<double> weights, significance;
};

std::string root_attribute(const std::string& path, const char* name) { return path + ": root attribute '" + name + "'"; }

// In run_isolated's child: the format, then every table, checked for type and shape.
void send_tables(const std::string& path, io::detail::Writer& out) {
    const io::detail::H5Reader file(path);
    const auto format = file.string_attribute("/", "spikeminer_format");
    if (format != "pipeline-results") {
        throw Error(root_attribute(path, "spikeminer_format") + " is " + (format ? "'" + *format + "'" : std::string("missing")) +
                    ", expected 'pipeline-results': not the results.h5 of a spikeminer run");
    }
    const auto version = file.integer_attribute("/", "spikeminer_format_version");
    if (!version || *version != kVersion) {
        throw Error(root_attribute(path, "spikeminer_format_version") + " is " +
                    (version ? std::to_string(*version) : std::string("missing")) + "; this program reads version " +
                    std::to_string(kVersion) + (version && *version > kVersion ? " (update spikeminer)" : ""));
    }
    const auto ticks = file.integer_attribute("/", "ticks_per_second");
    if (!ticks || *ticks <= 0) throw Error(root_attribute(path, "ticks_per_second") + " is missing or not positive");
    out.value(*ticks);
    for (const char* name : kTextAttributes) {
        const auto text = file.string_attribute("/", name);
        if (!text) throw Error(root_attribute(path, name) + " is missing or not a string");
        out.text(*text);
    }
    out.texts(file.read_strings("/neurons/labels"));
    io::detail::send_mining_group(file, out);
    for (const IntegerTable& table : kIntegerTables) {
        out.values(table.pairs ? file.read_integer_pairs(table.path) : file.read_integers(table.path));
    }
    out.values(file.read_numbers("/edge_changes/weight"));
    std::vector<double> significance;
    if (file.exists("/assemblies/significance")) {
        std::size_t columns = 0;
        significance = file.read_rows("/assemblies/significance", file.length("/assemblies/id"), columns);
        if (columns != 5) throw Error(file.where("/assemblies/significance") + " has " + std::to_string(columns) + " columns, expected 5");
    }
    out.values(significance);
}

Tables receive_tables(io::detail::Reader& in, const std::string& path) {
    Tables t;
    t.ticks_per_second = in.value<std::int64_t>();
    for (std::size_t i = 0; i < std::size(kTextAttributes); ++i) t.texts.push_back(in.text());
    t.labels = in.texts();
    t.episodes = io::detail::receive_mining_group(in, path, t.labels.size());
    for (const IntegerTable& table : kIntegerTables) t.integers[table.path] = in.values<std::int64_t>();
    t.weights = in.values<double>();
    t.significance = in.values<double>();
    return t;
}

// One integer table with its dataset's name, which errors about it give.
struct Column {
    const char* dataset;
    const std::vector<std::int64_t>& values;
    [[nodiscard]] std::size_t size() const { return values.size(); }
};

// The checks of one file's tables against each other; every error names the file and the dataset.
class Checks {
public:
    Checks(const std::string& path, const Tables& tables)
        : path_(path), tables_(tables), ids_(tables.integers.at("/assemblies/id")) {}

    [[noreturn]] void fail(const std::string& dataset, const std::string& what) const {
        throw Error(dataset_where(path_, dataset) + " " + what);
    }

    // The integer table `dataset`; with `things`, checked to have `n` rows (of `width`), one per thing.
    Column column(const char* dataset, std::size_t n = 0, const char* things = nullptr, std::size_t width = 1) const {
        const Column c{dataset, tables_.integers.at(dataset)};
        if (things != nullptr && c.size() != n * width) {
            fail(dataset, "has " + std::to_string(c.size() / width) + " rows, expected " + std::to_string(n) + " (one per " + things + ")");
        }
        return c;
    }

    // Element i of `c`, an id from 0 to n - 1 of one of `things`.
    std::size_t id(const Column& c, std::size_t i, std::size_t n, const char* things) const {
        const std::int64_t v = c.values[i];
        if (v < 0 || static_cast<std::uint64_t>(v) >= n) {
            fail(c.dataset, "element " + std::to_string(i) + " is " + std::to_string(v) + ", not one of the " + std::to_string(n) + " " +
                                things);
        }
        return static_cast<std::size_t>(v);
    }

    // Element i of `c`, a count.
    std::size_t count(const Column& c, std::size_t i) const {
        if (c.values[i] < 0) fail(c.dataset, "element " + std::to_string(i) + " is " + std::to_string(c.values[i]) + ", not a count");
        return static_cast<std::size_t>(c.values[i]);
    }

    // Element i of `c`, the id of one of the assemblies in /assemblies/id (checked to ascend).
    std::uint32_t assembly(const Column& c, std::size_t i) const {
        if (!std::binary_search(ids_.begin(), ids_.end(), c.values[i])) {
            fail(c.dataset, "element " + std::to_string(i) + " is " + std::to_string(c.values[i]) + ", not an id in /assemblies/id");
        }
        return static_cast<std::uint32_t>(c.values[i]);
    }

    // Row `row` of the (start, end) table `c`.
    TimeSpan span(const Column& c, std::size_t row) const {
        const TimeSpan s{c.values[2 * row], c.values[2 * row + 1]};
        if (s.end < s.start) fail(c.dataset, "row " + std::to_string(row) + " ends before it starts");
        return s;
    }

    // The neuron ids of `dataset`, split into `n` lists by the cumulative ends in `index`.
    std::vector<std::vector<NeuronId>> neuron_lists(const char* dataset, const char* index, std::size_t n) const {
        const Column c = column(dataset);
        std::vector<NeuronId> neurons(c.size());
        for (std::size_t i = 0; i < neurons.size(); ++i) neurons[i] = static_cast<NeuronId>(id(c, i, tables_.labels.size(), "neurons"));
        return io::detail::split_by_ends(dataset_where(path_, index), neurons, column(index).values, n);
    }

    // The values of `dataset`, split into `n` lists by the cumulative ends in `index`.
    std::vector<std::vector<std::int64_t>> lists(const char* dataset, const char* index, std::size_t n) const {
        return io::detail::split_by_ends(dataset_where(path_, index), column(dataset).values, column(index).values, n);
    }

private:
    const std::string& path_;
    const Tables& tables_;
    const std::vector<std::int64_t>& ids_;
};

std::vector<Assembly> assemblies_of(const Checks& check, const Tables& t, std::size_t num_windows) {
    const Column ids = check.column("/assemblies/id");
    const std::size_t n = ids.size();
    const Column span = check.column("/assemblies/span", n, "assembly", 2);
    for (std::size_t a = 0; a < n; ++a) {
        if (ids.values[a] < 0 || ids.values[a] >= std::int64_t{kNoAssembly} || (a > 0 && ids.values[a] <= ids.values[a - 1])) {
            check.fail(ids.dataset, "element " + std::to_string(a) + " is " + std::to_string(ids.values[a]) +
                                        ": ids ascend, each from 0 to 2^32 - 2");
        }
    }
    const Column window_ids = check.column("/assemblies/windows");
    for (std::size_t i = 0; i < window_ids.size(); ++i) check.id(window_ids, i, num_windows, "windows");
    const auto members = check.neuron_lists("/assemblies/members", "/assemblies/members_index", n);
    const auto windows = check.lists("/assemblies/windows", "/assemblies/windows_index", n);
    const auto activations = check.lists("/assemblies/activations", "/assemblies/activations_index", n);
    const auto active = check.lists("/assemblies/active", "/assemblies/active_index", n);
    std::vector<Assembly> assemblies(n);
    for (std::size_t a = 0; a < n; ++a) {
        Assembly& x = assemblies[a];
        const std::string which = " of assembly " + std::to_string(ids.values[a]);
        x.track.id = static_cast<std::uint32_t>(ids.values[a]);
        if (std::adjacent_find(windows[a].begin(), windows[a].end(), std::greater_equal<>()) != windows[a].end()) {
            check.fail(window_ids.dataset, "lists the windows" + which + " out of order");
        }
        x.track.windows.assign(windows[a].begin(), windows[a].end());
        x.members = members[a];
        x.span = check.span(span, a);
        x.activations = activations[a];
        if (!std::is_sorted(x.activations.begin(), x.activations.end())) {
            check.fail("/assemblies/activations", "lists the activations" + which + " out of order");
        }
        // Active periods: (start, end) pairs, each ending after it starts and before the next.
        if (active[a].size() % 2 != 0) check.fail("/assemblies/active", "holds an odd number of bounds" + which);
        for (std::size_t p = 0; p + 1 < active[a].size(); p += 2) {
            const TimeSpan period{active[a][p], active[a][p + 1]};
            if (period.end <= period.start || (p > 0 && period.start < active[a][p - 1])) {
                check.fail("/assemblies/active", "lists the active periods" + which + " out of order or empty");
            }
            x.active.push_back(period);
        }
        if (t.significance.empty() || std::isnan(t.significance[5 * a])) continue;  // NaN: not tested
        const double* row = &t.significance[5 * a];
        if (!(row[4] >= 0 && row[4] <= 1e15)) {
            check.fail("/assemblies/significance", "row " + std::to_string(a) + ": the surrogates used are not a count");
        }
        // The test counted the activations within its windows: those stored.
        x.significance = mining::SurrogateSignificance{x.activations.size(), row[2], row[3], static_cast<std::size_t>(row[4]), 0,
                                                       row[0], row[1], false};
    }
    return assemblies;
}

std::vector<WindowSummary> windows_of(const Checks& check, std::size_t num_neurons) {
    const Column span = check.column("/windows/span");
    const std::size_t n = span.size() / 2;  // read as (rows, 2)
    const Column edges = check.column("/windows/edges", n, "window");
    const Column inserted = check.column("/windows/inserted", n, "window");
    const Column erased = check.column("/windows/erased", n, "window");
    const Column updated = check.column("/windows/updated", n, "window");
    const Column components = check.column("/windows/components", n, "window");
    const Column largest = check.column("/windows/largest_component", n, "window");
    const Column central = check.column("/windows/most_central", n, "window");
    std::vector<WindowSummary> windows(n);
    for (std::size_t w = 0; w < n; ++w) {
        WindowSummary& s = windows[w];
        s.index = w;
        s.span = check.span(span, w);
        s.edges = check.count(edges, w);
        s.inserted = check.count(inserted, w);
        s.erased = check.count(erased, w);
        s.updated = check.count(updated, w);
        s.components = check.count(components, w);
        s.largest_component = check.count(largest, w);
        if (central.values[w] != -1) s.most_central = static_cast<NeuronId>(check.id(central, w, num_neurons, "neurons (or -1)"));
    }
    const std::size_t cliques = check.column("/windows/clique_members_index").size();
    const Column clique_window = check.column("/windows/clique_window", cliques, "clique");
    const Column clique_assembly = check.column("/windows/clique_assembly", cliques, "clique");
    auto members = check.neuron_lists("/windows/clique_members", "/windows/clique_members_index", cliques);
    for (std::size_t c = 0; c < cliques; ++c) {
        const std::size_t w = check.id(clique_window, c, n, "windows");
        if (c > 0 && clique_window.values[c] < clique_window.values[c - 1]) {
            check.fail(clique_window.dataset,
                       "element " + std::to_string(c) + " is " + std::to_string(w) + ", before the window of the clique before it");
        }
        windows[w].cliques.push_back(std::move(members[c]));
        windows[w].assemblies.push_back(clique_assembly.values[c] == -1 ? kNoAssembly : check.assembly(clique_assembly, c));
    }
    return windows;
}

std::vector<EdgeChange> changes_of(const Checks& check, const Tables& t, std::size_t num_windows, std::size_t num_neurons) {
    const Column window = check.column("/edge_changes/window");
    const std::size_t n = window.size();
    const Column a = check.column("/edge_changes/a", n, "edge change");
    const Column b = check.column("/edge_changes/b", n, "edge change");
    const Column kind = check.column("/edge_changes/kind", n, "edge change");
    if (t.weights.size() != n) {
        check.fail("/edge_changes/weight",
                   "has " + std::to_string(t.weights.size()) + " rows, expected " + std::to_string(n) + " (one per edge change)");
    }
    std::vector<EdgeChange> changes(n);
    for (std::size_t i = 0; i < n; ++i) {
        EdgeChange& c = changes[i];
        c.window = static_cast<std::uint32_t>(check.id(window, i, num_windows, "windows"));
        if (i > 0 && c.window < changes[i - 1].window) {  // the changes replay window after window
            check.fail(window.dataset, "element " + std::to_string(i) + " is window " + std::to_string(c.window) + ", before the one above it (" +
                                           std::to_string(changes[i - 1].window) + ")");
        }
        c.a = static_cast<NeuronId>(check.id(a, i, num_neurons, "neurons"));
        c.b = static_cast<NeuronId>(check.id(b, i, num_neurons, "neurons"));
        if (c.a >= c.b) {
            check.fail(b.dataset,
                       "element " + std::to_string(i) + " is " + std::to_string(c.b) + ", not above a (" + std::to_string(c.a) + ")");
        }
        c.kind = static_cast<EdgeChange::Kind>(check.id(kind, i, 3, "kinds (0 inserted, 1 erased, 2 re-weighted)"));
        if (!std::isfinite(t.weights[i])) check.fail("/edge_changes/weight", "element " + std::to_string(i) + " is not a finite number");
        c.weight = static_cast<float>(t.weights[i]);
    }
    return changes;
}

std::vector<AssemblyEvent> events_of(const Checks& check, std::size_t num_windows) {
    const Column window = check.column("/events/window");
    const std::size_t n = window.size();
    const Column assembly = check.column("/events/assembly", n, "event");
    const Column other = check.column("/events/other", n, "event");
    const Column kind = check.column("/events/kind", n, "event");
    std::vector<AssemblyEvent> events(n);
    for (std::size_t i = 0; i < n; ++i) {
        AssemblyEvent& e = events[i];
        e.window = check.id(window, i, num_windows, "windows");
        e.kind = static_cast<EventKind>(check.id(kind, i, 6, "kinds (0 appears, 1 grows, 2 shrinks, 3 splits, 4 merges, 5 ends)"));
        e.assembly = check.assembly(assembly, i);
        // A split's parent and the assembly a merge joined are assemblies; otherwise unused.
        const bool names_assembly = e.kind == EventKind::Splits || e.kind == EventKind::Merges;
        e.other = names_assembly ? check.assembly(other, i)
                                 : static_cast<std::uint32_t>(check.id(other, i, std::size_t{1} << 32, "values of 32 bits"));
    }
    return events;
}

}  // namespace

SavedRun read_results(const std::string& path) {
    io::check_input_file(path);
    Tables t;
    io::detail::run_isolated(
        path, [&](io::detail::Writer& out) { send_tables(path, out); }, [&](io::detail::Reader& in) { t = receive_tables(in, path); },
        nullptr);
    const Checks check(path, t);
    SavedRun run;
    PipelineResult& r = run.result;
    // Assemblies first: the cliques and events name them.
    const std::size_t num_windows = check.column("/windows/span").size() / 2;
    r.assemblies = assemblies_of(check, t, num_windows);
    r.windows = windows_of(check, t.labels.size());
    r.changes = changes_of(check, t, num_windows, t.labels.size());
    r.events = events_of(check, num_windows);
    r.episodes = std::move(t.episodes);
    run.input = std::move(t.texts[0]);
    run.input_checksum = std::move(t.texts[1]);
    run.config_json = std::move(t.texts[2]);
    run.created_by = std::move(t.texts[3]);
    run.time_base = TimeBase{t.ticks_per_second};
    run.labels = std::move(t.labels);
    return run;
}

}  // namespace spikeminer::pipeline
