#include "spike_arrays.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace py = pybind11;

namespace spikeminer::python {
namespace {

// Below this many ids the units are told apart with a table of every id; above, by sorting.
constexpr std::uint64_t kTableIds = std::uint64_t{1} << 24;

// Calls body(values, stride in elements) with the array's elements as their own type.
template <typename Body>
void with_integers(const py::array& array, Body&& body) {
    const py::dtype type = array.dtype();
    const auto elements = [&](auto* first) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(first)>>;
        body(first, array.size() == 0 ? 0 : array.strides(0) / static_cast<py::ssize_t>(sizeof(T)));
    };
    const void* data = array.data();
    const char kind = type.kind();
    const auto size = type.itemsize();
    if (kind == 'i' && size == 1) elements(static_cast<const std::int8_t*>(data));
    else if (kind == 'i' && size == 2) elements(static_cast<const std::int16_t*>(data));
    else if (kind == 'i' && size == 4) elements(static_cast<const std::int32_t*>(data));
    else if (kind == 'i' && size == 8) elements(static_cast<const std::int64_t*>(data));
    else if (kind == 'u' && size == 1) elements(static_cast<const std::uint8_t*>(data));
    else if (kind == 'u' && size == 2) elements(static_cast<const std::uint16_t*>(data));
    else if (kind == 'u' && size == 4) elements(static_cast<const std::uint32_t*>(data));
    else elements(static_cast<const std::uint64_t*>(data));
}

template <typename Body>
void with_reals(const py::array& array, Body&& body) {
    const auto elements = [&](auto* first) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(first)>>;
        body(first, array.size() == 0 ? 0 : array.strides(0) / static_cast<py::ssize_t>(sizeof(T)));
    };
    if (array.dtype().itemsize() == 4) elements(static_cast<const float*>(array.data()));
    else elements(static_cast<const double*>(array.data()));
}

template <typename T>
bool negative_id(T value) {
    if constexpr (std::is_signed_v<T>) return value < 0;
    return false;
}

std::string element(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

std::vector<Tick> ticks_of(const py::array& times, const TimeBase& time_base) {
    std::vector<Tick> ticks(static_cast<std::size_t>(times.size()));
    const auto n = static_cast<std::int64_t>(ticks.size());
    std::int64_t bad = n;  // the first element that is not a time
    with_reals(times, [&](const auto* values, py::ssize_t stride) {
#pragma omp parallel for schedule(static) reduction(min : bad)
        for (std::int64_t i = 0; i < n; ++i) {
            const double seconds = static_cast<double>(values[i * stride]);
            try {
                ticks[static_cast<std::size_t>(i)] = time_base.from_seconds(seconds);
            } catch (const Error&) {
                bad = std::min(bad, i);
            }
        }
        if (bad < n) {
            const auto i = static_cast<std::size_t>(bad);
            const double seconds = static_cast<double>(values[static_cast<py::ssize_t>(i) * stride]);
            try {
                (void)time_base.from_seconds(seconds);
            } catch (const Error& e) {
                throw UsageError(element("times", i) + " = " + shown(seconds) + ": " + e.what());
            }
        }
    });
    return ticks;
}

// Dense neuron ids of integer unit ids, in numeric order; the labels are the ids.
std::vector<NeuronId> dense_ids(const py::array& units, std::vector<std::string>& labels) {
    const auto n = static_cast<std::int64_t>(units.size());
    std::vector<NeuronId> ids(static_cast<std::size_t>(n));
    with_integers(units, [&](const auto* values, py::ssize_t stride) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(values)>>;
        std::int64_t first_negative = n;
        std::uint64_t largest = 0;
#pragma omp parallel for schedule(static) reduction(min : first_negative) reduction(max : largest)
        for (std::int64_t i = 0; i < n; ++i) {
            const T value = values[i * stride];
            if (negative_id(value)) {
                first_negative = std::min(first_negative, i);
                continue;
            }
            largest = std::max(largest, static_cast<std::uint64_t>(value));
        }
        if (first_negative < n) {
            throw UsageError(element("units", static_cast<std::size_t>(first_negative)) + " = " +
                             std::to_string(static_cast<std::int64_t>(values[first_negative * stride])) + ": unit ids are 0 or more");
        }
        std::vector<std::uint64_t> present;  // the distinct ids, ascending
        if (n > 0 && largest < kTableIds) {
            std::vector<std::uint8_t> seen(largest + 1, 0);
            for (std::int64_t i = 0; i < n; ++i) seen[static_cast<std::uint64_t>(values[i * stride])] = 1;
            for (std::uint64_t id = 0; id <= largest; ++id) {
                if (seen[id] != 0) present.push_back(id);
            }
        } else if (n > 0) {
            present.resize(static_cast<std::size_t>(n));
            for (std::int64_t i = 0; i < n; ++i) present[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(values[i * stride]);
            std::sort(present.begin(), present.end());
            present.erase(std::unique(present.begin(), present.end()), present.end());
        }
        if (present.size() > std::numeric_limits<NeuronId>::max()) throw UsageError("units: more distinct ids than neuron ids can hold");
        labels.clear();
        for (const std::uint64_t id : present) labels.push_back(std::to_string(id));
        const bool table = largest < kTableIds;
        std::vector<NeuronId> rank(table && n > 0 ? largest + 1 : 0);
        for (std::size_t k = 0; k < rank.size() && k < present.size(); ++k) rank[present[k]] = static_cast<NeuronId>(k);
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto id = static_cast<std::uint64_t>(values[i * stride]);
            ids[static_cast<std::size_t>(i)] =
                table ? rank[id] : static_cast<NeuronId>(std::lower_bound(present.begin(), present.end(), id) - present.begin());
        }
    });
    return ids;
}

// Positions into given labels, checked against their number.
std::vector<NeuronId> positions(const py::array& units, std::size_t labels) {
    const auto n = static_cast<std::int64_t>(units.size());
    std::vector<NeuronId> ids(static_cast<std::size_t>(n));
    with_integers(units, [&](const auto* values, py::ssize_t stride) {
        std::int64_t bad = n;
#pragma omp parallel for schedule(static) reduction(min : bad)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto value = values[i * stride];
            if (negative_id(value) || static_cast<std::uint64_t>(value) >= labels) bad = std::min(bad, i);
            else ids[static_cast<std::size_t>(i)] = static_cast<NeuronId>(value);
        }
        if (bad < n) {
            throw UsageError(element("units", static_cast<std::size_t>(bad)) + " = " + std::to_string(values[bad * stride]) +
                             ": not a position among the " + std::to_string(labels) + " labels");
        }
    });
    return ids;
}

}  // namespace

SpikeArrays check_spike_arrays(py::array times, py::array units, std::optional<std::vector<std::string>> labels) {
    if (times.ndim() != 1) throw py::value_error("times: expected a one-dimensional array, got " + std::to_string(times.ndim()) + " dimensions");
    if (units.ndim() != 1) throw py::value_error("units: expected a one-dimensional array, got " + std::to_string(units.ndim()) + " dimensions");
    const char time_kind = times.dtype().kind();
    const auto time_size = times.dtype().itemsize();
    if (time_kind != 'f' || (time_size != 4 && time_size != 8)) {
        throw py::value_error("times: expected spike times in seconds as float32 or float64, got dtype " +
                              py::str(static_cast<py::object>(times.dtype())).cast<std::string>() +
                              (time_kind == 'i' || time_kind == 'u' ? " (sample numbers: divide by the sampling rate)" : ""));
    }
    const char unit_kind = units.dtype().kind();
    if (unit_kind != 'i' && unit_kind != 'u') {
        throw py::value_error("units: expected integer unit ids, got dtype " + py::str(static_cast<py::object>(units.dtype())).cast<std::string>());
    }
    if (times.size() != units.size()) {
        throw py::value_error("times and units differ in length: " + std::to_string(times.size()) + " and " + std::to_string(units.size()));
    }
    if (static_cast<std::uint64_t>(times.size()) >= std::numeric_limits<std::uint32_t>::max()) {
        throw py::value_error("times: " + std::to_string(times.size()) + " spikes, more than a recording holds (2^32 - 1)");
    }
    return SpikeArrays{std::move(times), std::move(units), std::move(labels)};
}

SpikeTrains trains_from_arrays(const SpikeArrays& arrays, const TimeBase& time_base, DuplicatePolicy duplicates) {
    std::vector<Tick> ticks = ticks_of(arrays.times, time_base);
    NeuronTable table;
    std::vector<NeuronId> ids;
    if (arrays.labels) {
        table.labels = *arrays.labels;
        ids = positions(arrays.units, table.labels.size());
    } else {
        ids = dense_ids(arrays.units, table.labels);
    }
    SpikeTrains trains = SpikeTrains::from_columns(SpikeColumns::own(std::move(ticks), std::move(ids)), std::move(table), time_base, duplicates);
    trains.set_metadata("source.format", "arrays");
    return trains;
}

}  // namespace spikeminer::python
