#include "spike_arrays.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"
#include "spikeminer/core/label_indexer.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace py = pybind11;

namespace spikeminer::python {
namespace {

// Below this many ids the units are told apart with a table of every id; above, by sorting.
constexpr std::uint64_t kTableIds = std::uint64_t{1} << 24;

// Calls body(values, stride in elements) with the column's elements as their own type.
template <typename Body>
void with_elements(const Column& c, Body&& body) {
    const auto as = [&](auto zero) {
        using T = decltype(zero);
        body(reinterpret_cast<const T*>(c.data), c.stride / static_cast<std::ptrdiff_t>(sizeof(T)));
    };
    if (c.kind == 'f') {
        if (c.itemsize == 4) as(float{});
        else as(double{});
        return;
    }
    const bool is_signed = c.kind == 'i';
    switch (c.itemsize) {
        case 1: is_signed ? as(std::int8_t{}) : as(std::uint8_t{}); break;
        case 2: is_signed ? as(std::int16_t{}) : as(std::uint16_t{}); break;
        case 4: is_signed ? as(std::int32_t{}) : as(std::uint32_t{}); break;
        default: is_signed ? as(std::int64_t{}) : as(std::uint64_t{}); break;
    }
}

template <typename T>
bool negative_id(T value) {
    if constexpr (std::is_signed_v<T>) return value < 0;
    return false;
}

std::string element(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

template <typename T>
std::string text_of(T value) {
    if constexpr (std::is_floating_point_v<T>) return shown(static_cast<double>(value));
    else return std::to_string(value);
}

std::vector<Tick> ticks_of(const Column& times, const TimeBase& time_base) {
    std::vector<Tick> ticks(times.size);
    const auto n = static_cast<std::int64_t>(times.size);
    with_elements(times, [&](const auto* values, std::ptrdiff_t stride) {
        std::int64_t bad = n;  // the first element that is not a time
#pragma omp parallel for schedule(static) reduction(min : bad)
        for (std::int64_t i = 0; i < n; ++i) {
            try {
                ticks[static_cast<std::size_t>(i)] = time_base.from_seconds(static_cast<double>(values[i * stride]));
            } catch (...) {
                bad = std::min(bad, i);
            }
        }
        if (bad == n) return;
        const double seconds = static_cast<double>(values[bad * stride]);
        try {
            (void)time_base.from_seconds(seconds);
        } catch (const Error& e) {
            throw UsageError(element("times", static_cast<std::size_t>(bad)) + " = " + shown(seconds) + ": " + e.what());
        }
    });
    return ticks;
}

// Dense neuron ids of integer unit ids, in numeric order; the labels are the ids.
std::vector<NeuronId> dense_ids(const Column& units, std::vector<std::string>& labels) {
    const auto n = static_cast<std::int64_t>(units.size);
    std::vector<NeuronId> ids(units.size);
    with_elements(units, [&](const auto* values, std::ptrdiff_t stride) {
        std::int64_t first_negative = n;
        std::uint64_t largest = 0;
#pragma omp parallel for schedule(static) reduction(min : first_negative) reduction(max : largest)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto value = values[i * stride];
            if (negative_id(value)) first_negative = std::min(first_negative, i);
            else largest = std::max(largest, static_cast<std::uint64_t>(value));
        }
        if (first_negative < n) {
            throw UsageError(element("units", static_cast<std::size_t>(first_negative)) + " = " + text_of(values[first_negative * stride]) +
                             ": unit ids are 0 or more");
        }
        const bool table = n > 0 && largest < kTableIds;
        std::vector<std::uint64_t> present;  // the distinct ids, ascending
        std::vector<NeuronId> rank(table ? largest + 1 : 0);
        if (table) {
            std::vector<std::uint8_t> seen(largest + 1, 0);
            for (std::int64_t i = 0; i < n; ++i) seen[static_cast<std::uint64_t>(values[i * stride])] = 1;
            for (std::uint64_t id = 0; id <= largest; ++id) {
                if (seen[id] == 0) continue;
                rank[id] = static_cast<NeuronId>(present.size());
                present.push_back(id);
            }
        } else {
            present.resize(units.size);
            for (std::int64_t i = 0; i < n; ++i) present[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(values[i * stride]);
            std::sort(present.begin(), present.end());
            present.erase(std::unique(present.begin(), present.end()), present.end());
        }
        if (present.size() > std::numeric_limits<NeuronId>::max()) throw UsageError("units: more distinct ids than neuron ids can hold");
        labels.clear();
        for (const std::uint64_t id : present) labels.push_back(std::to_string(id));
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto id = static_cast<std::uint64_t>(values[i * stride]);
            ids[static_cast<std::size_t>(i)] =
                table ? rank[id] : static_cast<NeuronId>(std::lower_bound(present.begin(), present.end(), id) - present.begin());
        }
    });
    return ids;
}

// Neuron ids of positions into labels: the labels ordered as the readers order them.
std::vector<NeuronId> labelled_ids(const Column& units, const std::vector<std::string>& given, std::vector<std::string>& labels) {
    LabelIndexer indexer;
    std::vector<NeuronId> provisional(given.size());
    for (std::size_t k = 0; k < given.size(); ++k) {
        const std::string canonical = canonical_integer_label(given[k]);
        provisional[k] = indexer.intern(canonical.empty() ? given[k] : canonical);
        if (indexer.size() != k + 1) throw UsageError("unit labels: " + in_quotes(given[k]) + " names the unit of an earlier label");
    }
    auto [final_labels, remap] = indexer.finish();
    labels = std::move(final_labels);
    const auto n = static_cast<std::int64_t>(units.size);
    std::vector<NeuronId> ids(units.size);
    with_elements(units, [&](const auto* values, std::ptrdiff_t stride) {
        std::int64_t bad = n;
#pragma omp parallel for schedule(static) reduction(min : bad)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto value = values[i * stride];
            if (negative_id(value) || static_cast<std::uint64_t>(value) >= given.size()) bad = std::min(bad, i);
            else ids[static_cast<std::size_t>(i)] = remap[provisional[static_cast<std::size_t>(value)]];
        }
        if (bad < n) {
            throw UsageError(element("units", static_cast<std::size_t>(bad)) + " = " + text_of(values[bad * stride]) +
                             ": not a position among the " + std::to_string(given.size()) + " labels");
        }
    });
    return ids;
}

std::string dtype_text(const py::array& array) { return py::str(static_cast<py::object>(array.dtype())).cast<std::string>(); }

// The size of the array's elements, asked of numpy: pybind11's own reading of it is numpy 1's
// layout, wrong under numpy 2.
std::ptrdiff_t element_size(const py::array& array) { return array.dtype().attr("itemsize").cast<std::ptrdiff_t>(); }

// What the conversion reads of a checked one-dimensional array.
Column column_of(const py::array& array, const char* name) {
    const bool native = array.dtype().attr("isnative").cast<bool>();
    const bool aligned = array.attr("flags").attr("aligned").cast<bool>();
    const std::ptrdiff_t itemsize = element_size(array);
    const std::ptrdiff_t stride = array.size() == 0 ? itemsize : array.strides(0);
    if (!native || !aligned || stride % itemsize != 0) {
        throw py::value_error(std::string(name) + ": give an array of native byte order, aligned, of whole-element strides "
                              "(numpy.ascontiguousarray makes one)");
    }
    return Column{static_cast<const std::byte*>(array.data()), array.dtype().kind(), static_cast<std::size_t>(itemsize), stride,
                  static_cast<std::size_t>(array.size())};
}

}  // namespace

SpikeArrays check_spike_arrays(py::array times, py::array units, std::optional<std::vector<std::string>> labels) {
    if (times.ndim() != 1) throw py::value_error("times: expected a one-dimensional array, got " + std::to_string(times.ndim()) + " dimensions");
    if (units.ndim() != 1) throw py::value_error("units: expected a one-dimensional array, got " + std::to_string(units.ndim()) + " dimensions");
    const char time_kind = times.dtype().kind();
    const std::ptrdiff_t time_size = element_size(times);
    if (time_kind != 'f' || (time_size != 4 && time_size != 8)) {
        throw py::value_error("times: expected spike times in seconds as float32 or float64, got dtype " + dtype_text(times) +
                              (time_kind == 'i' || time_kind == 'u' ? " (sample numbers: divide by the sampling rate)" : ""));
    }
    const char unit_kind = units.dtype().kind();
    if (unit_kind != 'i' && unit_kind != 'u') throw py::value_error("units: expected integer unit ids, got dtype " + dtype_text(units));
    if (times.size() != units.size()) {
        throw py::value_error("times and units differ in length: " + std::to_string(times.size()) + " and " + std::to_string(units.size()));
    }
    if (static_cast<std::uint64_t>(times.size()) >= std::numeric_limits<std::uint32_t>::max()) {
        throw py::value_error("times: " + std::to_string(times.size()) + " spikes, more than a recording holds (2^32 - 1)");
    }
    const Column time_column = column_of(times, "times");
    const Column unit_column = column_of(units, "units");
    return SpikeArrays{std::move(times), std::move(units), time_column, unit_column, std::move(labels)};
}

SpikeTrains trains_from_arrays(const SpikeArrays& arrays, const TimeBase& time_base, DuplicatePolicy duplicates) {
    std::vector<Tick> ticks = ticks_of(arrays.time_column, time_base);
    NeuronTable table;
    std::vector<NeuronId> ids = arrays.labels ? labelled_ids(arrays.unit_column, *arrays.labels, table.labels)
                                              : dense_ids(arrays.unit_column, table.labels);
    SpikeTrains trains = SpikeTrains::from_columns(SpikeColumns::own(std::move(ticks), std::move(ids)), std::move(table), time_base, duplicates);
    trains.set_metadata("source.format", "arrays");
    return trains;
}

}  // namespace spikeminer::python
