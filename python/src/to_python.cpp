#include "to_python.hpp"

#include "spikeminer/app/pipeline/results.hpp"
#include "spikeminer/app/pipeline/run_config.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <span>

namespace py = pybind11;

namespace spikeminer::python {
namespace {

py::list labels_of(const SpikeTrains& trains, const std::vector<NeuronId>& neurons) {
    py::list labels;
    for (const NeuronId n : neurons) labels.append(trains.label(n));
    return labels;
}

// Each pair's two neurons (its a and b) by label, as the lists "a" and "b" of `into`.
template <typename Pairs>
void pair_labels(const SpikeTrains& trains, const Pairs& pairs, py::dict& into) {
    py::list a;
    py::list b;
    for (const auto& pair : pairs) {
        a.append(trains.label(pair.a));
        b.append(trains.label(pair.b));
    }
    into["a"] = a;
    into["b"] = b;
}

py::dict significance_to_python(const mining::SurrogateSignificance& s) {
    py::dict d;
    d["p"] = s.p;
    d["p_adjusted"] = s.p_adjusted;
    d["significant"] = s.significant;
    d["surrogate_mean"] = s.surrogate_mean;
    d["surrogate_sd"] = s.surrogate_sd;
    d["surrogates"] = s.surrogates_used;
    return d;
}

py::array_t<double> seconds_of(std::span<const Tick> ticks, const TimeBase& tb) {
    return numpy_column<double>(ticks.size(), [&](std::size_t i) { return tb.to_seconds(ticks[i]); });
}

py::array_t<double> spans_of(const std::vector<TimeSpan>& spans, const TimeBase& tb) {
    // Strides given, not derived from the dtype's size: see numpy_column.
    py::array_t<double> array({static_cast<py::ssize_t>(spans.size()), py::ssize_t{2}},
                              {static_cast<py::ssize_t>(2 * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))});
    auto out = array.mutable_unchecked<2>();
    for (std::size_t i = 0; i < spans.size(); ++i) {
        out(static_cast<py::ssize_t>(i), 0) = tb.to_seconds(spans[i].start);
        out(static_cast<py::ssize_t>(i), 1) = tb.to_seconds(spans[i].end);
    }
    return array;
}

py::dict windows_to_python(const SpikeTrains& trains, const pipeline::PipelineResult& result) {
    const auto& w = result.windows;
    const TimeBase& tb = trains.time_base();
    py::dict d;
    d["window"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].index; });
    d["start_s"] = numpy_column<double>(w.size(), [&](std::size_t i) { return tb.to_seconds(w[i].span.start); });
    d["end_s"] = numpy_column<double>(w.size(), [&](std::size_t i) { return tb.to_seconds(w[i].span.end); });
    d["edges"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].edges; });
    d["inserted"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].inserted; });
    d["erased"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].erased; });
    d["updated"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].updated; });
    d["components"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].components; });
    d["largest_component"] = numpy_column<std::uint64_t>(w.size(), [&](std::size_t i) { return w[i].largest_component; });
    py::list central;
    py::list cliques;
    py::list assemblies;
    for (const auto& window : w) {
        central.append(window.most_central ? py::object(py::str(trains.label(*window.most_central))) : py::object(py::none()));
        py::list these;
        for (const auto& clique : window.cliques) these.append(labels_of(trains, clique));
        cliques.append(these);
        py::list ids;
        for (const std::uint32_t id : window.assemblies) ids.append(id == pipeline::kNoAssembly ? py::object(py::none()) : py::object(py::int_(id)));
        assemblies.append(ids);
    }
    d["most_central"] = central;
    d["cliques"] = cliques;
    d["assemblies"] = assemblies;
    return d;
}

py::dict changes_to_python(const SpikeTrains& trains, const std::vector<pipeline::EdgeChange>& c) {
    static const char* const kinds[] = {"inserted", "erased", "updated"};
    py::dict d;
    d["window"] = numpy_column<std::uint32_t>(c.size(), [&](std::size_t i) { return c[i].window; });
    pair_labels(trains, c, d);
    py::list kind;
    for (const auto& change : c) kind.append(kinds[static_cast<int>(change.kind)]);
    d["kind"] = kind;
    d["weight"] = numpy_column<float>(c.size(), [&](std::size_t i) { return c[i].weight; });
    return d;
}

py::list assemblies_to_python(const SpikeTrains& trains, const pipeline::PipelineResult& result) {
    const TimeBase& tb = trains.time_base();
    py::list list;
    for (const auto& a : result.assemblies) {
        py::dict d;
        d["id"] = a.track.id;
        d["members"] = labels_of(trains, a.members);
        d["start_s"] = tb.to_seconds(a.span.start);
        d["end_s"] = tb.to_seconds(a.span.end);
        Tick active = 0;
        for (const TimeSpan& p : a.active) active += p.length();
        d["active_s"] = tb.to_seconds(active);
        d["windows"] = numpy_column<std::uint64_t>(a.track.windows.size(), [&](std::size_t i) { return a.track.windows[i]; });
        d["active"] = spans_of(a.active, tb);
        d["activations_s"] = seconds_of(a.activations, tb);
        d["significance"] = a.significance ? py::object(significance_to_python(*a.significance)) : py::object(py::none());
        list.append(d);
    }
    return list;
}

// An event's time is the start of the window it was seen in (as the recovery matches them).
py::list events_to_python(const SpikeTrains& trains, const pipeline::PipelineResult& result) {
    py::list list;
    for (const auto& e : result.events) {
        py::dict d;
        d["window"] = e.window;
        d["time_s"] = trains.time_base().to_seconds(result.windows.at(e.window).span.start);
        d["kind"] = pipeline::event_name(e.kind);
        d["assembly"] = e.assembly;
        d["other"] = e.other;
        list.append(d);
    }
    return list;
}

}  // namespace

py::array_t<double> stream_seconds(const SpikeTrains& trains) { return seconds_of(trains.times(), trains.time_base()); }

py::list train_seconds(const SpikeTrains& trains) {
    py::list list;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        const auto spikes = trains.spikes_of(n);
        list.append(numpy_column<double>(spikes.size(), [&](std::size_t i) { return trains.time_base().to_seconds(trains.times()[spikes[i]]); }));
    }
    return list;
}

py::list episodes_to_python(const SpikeTrains& trains, const mining::MiningResult& result) {
    const TimeBase& tb = trains.time_base();
    const auto ms = [&](Tick t) { return tb.to_seconds(t) * 1e3; };
    py::list list;
    for (const auto& found : result.episodes) {
        py::dict d;
        d["episode"] = mining::format_episode(found.episode, trains, "ms");
        d["neurons"] = labels_of(trains, found.episode.neurons);
        py::list intervals;
        for (const auto& gap : found.episode.gaps) intervals.append(py::make_tuple(ms(gap.lo), ms(gap.hi)));
        d["intervals_ms"] = intervals;
        d["count"] = found.count;
        if (const auto& c = found.chance) {
            py::dict chance;
            chance["pairs"] = c->count;
            chance["reversed_pairs"] = c->reversed;
            chance["baseline_pairs"] = c->baseline;
            chance["expected_pairs"] = c->expected;
            chance["p"] = c->p;
            chance["p_adjusted"] = c->p_adjusted;
            d["chance"] = chance;
        } else {
            d["chance"] = py::none();
        }
        d["significance"] = found.significance ? py::object(significance_to_python(*found.significance)) : py::object(py::none());
        list.append(d);
    }
    return list;
}

py::list levels_to_python(const mining::MiningResult& result) {
    py::list list;
    for (const auto& level : result.levels) {
        py::dict d;
        d["level"] = level.level;
        d["candidates"] = level.candidates;
        d["not_counted_by_pair_bound"] = level.bounded_out;
        d["tested_against_chance"] = level.chance_tests;
        d["beat_chance"] = level.beat_chance ? py::object(py::int_(*level.beat_chance)) : py::object(py::none());
        d["frequent"] = level.frequent;
        d["significant"] = level.significant ? py::object(py::int_(*level.significant)) : py::object(py::none());
        d["threshold"] = level.threshold;
        d["counter"] = mining::counter_name(level.counter);
        d["backend"] = backend_name(level.backend);
        d["seconds"] = level.seconds;
        list.append(d);
    }
    return list;
}

py::dict window_to_python(const SpikeTrains& trains, const mining::CofiringWindow& window) {
    const TimeBase& tb = trains.time_base();
    const auto& e = window.edges;
    py::dict edges;
    pair_labels(trains, e, edges);
    edges["interval"] = numpy_column<std::int32_t>(e.size(), [&](std::size_t i) { return e[i].interval; });
    edges["count"] = numpy_column<std::uint64_t>(e.size(), [&](std::size_t i) { return e[i].count; });
    edges["baseline"] = numpy_column<std::uint64_t>(e.size(), [&](std::size_t i) { return e[i].baseline; });
    edges["expected"] = numpy_column<double>(e.size(), [&](std::size_t i) { return e[i].expected; });
    edges["p"] = numpy_column<double>(e.size(), [&](std::size_t i) { return e[i].p; });
    edges["p_adjusted"] = numpy_column<double>(e.size(), [&](std::size_t i) { return e[i].p_adjusted; });
    py::dict d;
    d["index"] = window.index;
    d["start_s"] = tb.to_seconds(window.span.start);
    d["end_s"] = tb.to_seconds(window.span.end);
    d["tests"] = window.tests;
    d["edges"] = edges;
    return d;
}

py::dict run_to_python(const pipeline::Input& input, const pipeline::RunConfig& config, const pipeline::PipelineResult& result) {
    const SpikeTrains& trains = input.recording.trains;
    py::dict d;
    d["source"] = input.source;
    d["labels"] = trains.neuron_table().labels;
    d["episodes"] = episodes_to_python(trains, result.episodes);
    d["levels"] = levels_to_python(result.episodes);
    d["windows"] = windows_to_python(trains, result);
    d["changes"] = changes_to_python(trains, result.changes);
    d["assemblies"] = assemblies_to_python(trains, result);
    d["events"] = events_to_python(trains, result);
    const py::object loads = py::module_::import("json").attr("loads");
    const py::dict summary = loads(pipeline::summary_text(input, config, result));
    d["summary"] = summary;
    d["recovery"] = summary.contains("recovery") ? py::object(summary["recovery"]) : py::object(py::none());
    d["stages"] = summary["stages"];
    d["notes"] = result.notes;
    d["settings"] = loads(pipeline::to_json(result.settings));
    return d;
}

}  // namespace spikeminer::python
