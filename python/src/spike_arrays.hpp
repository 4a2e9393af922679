#pragma once
// Spike trains from numpy arrays: one array of spike times in seconds and one of unit ids
// (any integer type), read in place (strided views too) and converted once to the
// library's ticks and dense neuron ids.

#include "spikeminer/core/spike_trains.hpp"

#include <pybind11/numpy.h>

#include <optional>
#include <string>
#include <vector>

namespace spikeminer::python {

/// The arrays' description, checked under the GIL; read later without it.
struct SpikeArrays {
    pybind11::array times;  ///< float16/32/64 seconds, one-dimensional
    pybind11::array units;  ///< integer ids, same length
    /// When given, units are positions in it (0 .. size-1), and these are the labels.
    std::optional<std::vector<std::string>> labels;
};

/// Checks the arrays' kinds, shapes and lengths; throws ValueError (pybind11::value_error)
/// naming the argument.
SpikeArrays check_spike_arrays(pybind11::array times, pybind11::array units, std::optional<std::vector<std::string>> labels);

/// The spike trains of the arrays (no GIL needed): integer units in numeric order, as the
/// readers order integer labels. Throws UsageError naming the first bad element: a time
/// that is NaN, infinite or too large for the tick, a negative unit id, a position past the
/// labels.
SpikeTrains trains_from_arrays(const SpikeArrays& arrays, const TimeBase& time_base, DuplicatePolicy duplicates);

}  // namespace spikeminer::python
