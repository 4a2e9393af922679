#pragma once
// The library's results as numpy arrays and plain Python objects, times in seconds and
// neurons by their labels, the same numbers as the files `spikeminer run` writes.

#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

namespace spikeminer::python {

/// A new one-dimensional array of `rows` values, field(i) each. Its stride is given, not
/// derived by pybind11 from the dtype's size, which it reads at numpy 1's offset (numpy 2
/// moved it): so the module works with either numpy.
template <typename T, typename Field>
pybind11::array_t<T> numpy_column(std::size_t rows, Field&& field) {
    pybind11::array_t<T> array({static_cast<pybind11::ssize_t>(rows)}, {static_cast<pybind11::ssize_t>(sizeof(T))});
    T* out = array.mutable_data();
    for (std::size_t i = 0; i < rows; ++i) out[i] = field(i);
    return array;
}

/// Every spike's time in s, in time order (the stream of `trains`).
pybind11::array_t<double> stream_seconds(const SpikeTrains& trains);

/// Each neuron's spike times in s.
pybind11::list train_seconds(const SpikeTrains& trains);

/// Each episode: {"episode", "neurons", "intervals_ms", "count"}, with the test against
/// chance "chance": {"pairs", "expected_pairs", "p", "p_adjusted", ...} and with
/// significance "significance": {"p", "p_adjusted", ...}.
pybind11::list episodes_to_python(const SpikeTrains& trains, const mining::MiningResult& result);

/// Each level's report: {"level", "candidates", "frequent", "threshold", "backend", "seconds", ...}.
pybind11::list levels_to_python(const mining::MiningResult& result);

/// A co-firing window: {"index", "start_s", "end_s", "tests", "edges"}, the edges a dict of
/// arrays "a", "b" (labels), "interval" (-1: synchrony), "count", "expected", "p", "p_adjusted".
pybind11::dict window_to_python(const SpikeTrains& trains, const mining::CofiringWindow& window);

/// The whole run: "labels", "episodes", "levels", "windows" (a dict of columns, as
/// windows.csv, with each window's cliques and their assemblies), "changes" (a dict of
/// columns), "assemblies" (a list of dicts, as assemblies.csv, with the activation times
/// and active periods), "events", "summary" (summary.json's object), from it "recovery" (of
/// a simulation's ground truth, else None) and "stages", "notes", "settings".
pybind11::dict run_to_python(const pipeline::Input& input, const pipeline::RunConfig& config, const pipeline::PipelineResult& result);

}  // namespace spikeminer::python
