// results.h5 of a pipeline run (spikeminer HDF5, "pipeline-results", version 2; read back
// by read_results, results_file.cpp):
//   /                      attributes: spikeminer_format, spikeminer_format_version,
//                          ticks_per_second, created_by, input, input_checksum, config_json
//   /neurons/labels        string [N]
//   /mining/...            the frequent episodes, as in a mining-results file
//   /windows/span          int64 [W, 2] ticks; edges, inserted, erased, updated,
//                          components, largest_component, most_central (-1: none) int64 [W]
//   /windows/clique_members uint32 [], clique_members_index int64 [C] (cumulative ends),
//                          clique_window int64 [C], clique_assembly int64 [C] (-1: a
//                          clique of no reported assembly)
//   /edge_changes/window int64 [E], a, b uint32 [E], kind uint32 [E] (0 inserted,
//                          1 erased, 2 re-weighted), weight float64 [E] (-log10 corrected p)
//   /assemblies/id int64 [A], span int64 [A, 2] ticks, members uint32 [],
//                          members_index int64 [A], windows int64 [], windows_index int64 [A],
//                          activations int64 [] ticks, activations_index int64 [A],
//                          active int64 [] ticks (start, end of each active period, in
//                          turn), active_index int64 [A],
//                          significance float64 [A, 5] with significance tests (p,
//                          p_adjusted, surrogate mean, surrogate sd, surrogates used)
//   /events/window, assembly, other int64 [V], kind uint32 [V] (0 appears, 1 grows,
//                          2 shrinks, 3 splits, 4 merges, 5 ends)
#include "results_h5.hpp"

#include "../io/hdf5_write.hpp"
#include "../io/mining_h5.hpp"
#include "../io/significance_fields.hpp"

#include <algorithm>

namespace spikeminer::pipeline::detail {
namespace {

template <typename T>
std::span<const T> all(const std::vector<T>& v) {
    return {v.data(), v.size()};
}

// Concatenated lists and their cumulative ends.
template <typename T, typename Out>
void flatten(const std::vector<std::vector<T>>& lists, std::vector<Out>& values, std::vector<std::int64_t>& ends) {
    for (const auto& list : lists) {
        values.insert(values.end(), list.begin(), list.end());
        ends.push_back(static_cast<std::int64_t>(values.size()));
    }
}

void write_windows(io::detail::H5Writer& file, const PipelineResult& result) {
    file.create_group("/windows");
    std::vector<std::int64_t> span, edges, inserted, erased, updated, components, largest, central;
    std::vector<std::vector<NeuronId>> cliques;
    std::vector<std::int64_t> clique_window, clique_assembly;
    for (const WindowSummary& w : result.windows) {
        span.push_back(w.span.start);
        span.push_back(w.span.end);
        edges.push_back(static_cast<std::int64_t>(w.edges));
        inserted.push_back(static_cast<std::int64_t>(w.inserted));
        erased.push_back(static_cast<std::int64_t>(w.erased));
        updated.push_back(static_cast<std::int64_t>(w.updated));
        components.push_back(static_cast<std::int64_t>(w.components));
        largest.push_back(static_cast<std::int64_t>(w.largest_component));
        central.push_back(w.most_central ? static_cast<std::int64_t>(*w.most_central) : -1);
        for (std::size_t c = 0; c < w.cliques.size(); ++c) {
            cliques.push_back(w.cliques[c]);
            clique_window.push_back(static_cast<std::int64_t>(w.index));
            clique_assembly.push_back(w.assemblies[c] == kNoAssembly ? -1 : static_cast<std::int64_t>(w.assemblies[c]));
        }
    }
    file.write_pairs("/windows/span", span);
    file.write("/windows/edges", all(edges));
    file.write("/windows/inserted", all(inserted));
    file.write("/windows/erased", all(erased));
    file.write("/windows/updated", all(updated));
    file.write("/windows/components", all(components));
    file.write("/windows/largest_component", all(largest));
    file.write("/windows/most_central", all(central));
    std::vector<std::uint32_t> members;
    std::vector<std::int64_t> ends;
    flatten(cliques, members, ends);
    file.write("/windows/clique_members", all(members));
    file.write("/windows/clique_members_index", all(ends));
    file.write("/windows/clique_window", all(clique_window));
    file.write("/windows/clique_assembly", all(clique_assembly));
}

void write_changes(io::detail::H5Writer& file, const PipelineResult& result) {
    file.create_group("/edge_changes");
    std::vector<std::int64_t> window;
    std::vector<std::uint32_t> a, b, kind;
    std::vector<double> weight;
    for (const EdgeChange& c : result.changes) {
        window.push_back(c.window);
        a.push_back(c.a);
        b.push_back(c.b);
        kind.push_back(static_cast<std::uint32_t>(c.kind));
        weight.push_back(c.weight);
    }
    file.write("/edge_changes/window", all(window));
    file.write("/edge_changes/a", all(a));
    file.write("/edge_changes/b", all(b));
    file.write("/edge_changes/kind", all(kind));
    file.write("/edge_changes/weight", all(weight));
}

void write_assemblies(io::detail::H5Writer& file, const PipelineResult& result) {
    file.create_group("/assemblies");
    std::vector<std::int64_t> ids, span;
    std::vector<std::vector<NeuronId>> members;
    std::vector<std::vector<std::int64_t>> windows;
    std::vector<std::vector<Tick>> activations;
    std::vector<std::vector<Tick>> active;
    for (const Assembly& a : result.assemblies) {
        active.emplace_back();
        for (const TimeSpan& p : a.active) {
            active.back().push_back(p.start);
            active.back().push_back(p.end);
        }
        ids.push_back(a.track.id);
        span.push_back(a.span.start);
        span.push_back(a.span.end);
        members.push_back(a.members);
        windows.emplace_back(a.track.windows.begin(), a.track.windows.end());
        activations.push_back(a.activations);
    }
    file.write("/assemblies/id", all(ids));
    file.write_pairs("/assemblies/span", span);
    std::vector<std::uint32_t> flat_members;
    std::vector<std::int64_t> flat, ends;
    flatten(members, flat_members, ends);
    file.write("/assemblies/members", all(flat_members));
    file.write("/assemblies/members_index", all(ends));
    ends.clear();
    flatten(windows, flat, ends);
    file.write("/assemblies/windows", all(flat));
    file.write("/assemblies/windows_index", all(ends));
    flat.clear();
    ends.clear();
    flatten(activations, flat, ends);
    file.write("/assemblies/activations", all(flat));
    file.write("/assemblies/activations_index", all(ends));
    flat.clear();
    ends.clear();
    flatten(active, flat, ends);
    file.write("/assemblies/active", all(flat));
    file.write("/assemblies/active_index", all(ends));
    if (std::any_of(result.assemblies.begin(), result.assemblies.end(), [](const Assembly& a) { return a.significance.has_value(); })) {
        std::vector<double> rows;
        for (const Assembly& a : result.assemblies) {
            const auto row = io::detail::significance_row(a.significance);
            rows.insert(rows.end(), row.begin(), row.end());
        }
        file.write_rows("/assemblies/significance", rows, result.assemblies.size());
    }

    file.create_group("/events");
    std::vector<std::int64_t> window, assembly, other;
    std::vector<std::uint32_t> kind;
    for (const AssemblyEvent& e : result.events) {
        window.push_back(static_cast<std::int64_t>(e.window));
        assembly.push_back(e.assembly);
        other.push_back(e.other);
        kind.push_back(static_cast<std::uint32_t>(e.kind));
    }
    file.write("/events/window", all(window));
    file.write("/events/assembly", all(assembly));
    file.write("/events/other", all(other));
    file.write("/events/kind", all(kind));
}

}  // namespace

void write_results_h5(const std::string& path, const Input& input, const std::string& config_json, const PipelineResult& result,
                      const std::string& version) {
    const SpikeTrains& trains = input.recording.trains;
    io::detail::H5Writer file(path, path);
    file.set_attribute("/", "spikeminer_format", std::string("pipeline-results"));
    file.set_attribute("/", "spikeminer_format_version", kResultsVersion);
    file.set_attribute("/", "ticks_per_second", trains.time_base().ticks_per_second);
    file.set_attribute("/", "created_by", "spikeminer " + version);
    file.set_attribute("/", "input", input.source);
    file.set_attribute("/", "input_checksum", input.checksum);
    file.set_attribute("/", "config_json", config_json);
    io::detail::write_mining_group(file, trains, result.episodes);
    write_windows(file, result);
    write_changes(file, result);
    write_assemblies(file, result);
    file.close();
}

}  // namespace spikeminer::pipeline::detail
