#pragma once
// Spike trains from numpy arrays: one array of spike times in seconds and one of unit ids
// (any integer type), read in place (strided views too) and converted once to the
// library's ticks and dense neuron ids.

#include "spikeminer/core/spike_trains.hpp"

#include <pybind11/numpy.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::python {

/// What the conversion reads of a one-dimensional array: taken under the GIL, so that the
/// work without it touches no Python object.
struct Column {
    const std::byte* data = nullptr;
    char kind = 'f';             ///< numpy's kind: 'f' float, 'i' signed, 'u' unsigned
    std::size_t itemsize = 8;
    std::ptrdiff_t stride = 8;   ///< bytes from one element to the next
    std::size_t size = 0;
};

/// The arrays (kept alive by the caller, which holds the GIL) and what is read of them.
struct SpikeArrays {
    pybind11::array times;  ///< float32 or float64 seconds
    pybind11::array units;  ///< integer ids, or positions in `labels`
    Column time_column;
    Column unit_column;
    /// When given, units are positions in it (0 .. size-1), and these are the labels, named
    /// in first-appearance order: they are ordered as the readers order labels (numeric order
    /// when every label is an integer, else first appearance; "7.0" is unit 7).
    std::optional<std::vector<std::string>> labels;
};

/// Checks the arrays' kinds, shapes, lengths and layout (one-dimensional, native byte order,
/// aligned, a stride of whole elements); throws ValueError (pybind11::value_error) naming the
/// argument.
SpikeArrays check_spike_arrays(pybind11::array times, pybind11::array units, std::optional<std::vector<std::string>> labels);

/// The spike trains of the arrays (no GIL needed): integer units in numeric order, as the
/// readers order integer labels. Throws UsageError naming the first bad element: a time
/// that is NaN, infinite or too large for the tick, a negative unit id, a position past the
/// labels, two labels of one unit.
SpikeTrains trains_from_arrays(const SpikeArrays& arrays, const TimeBase& time_base, DuplicatePolicy duplicates);

}  // namespace spikeminer::python
