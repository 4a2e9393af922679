#pragma once

#include "hdf5_handle.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/uninitialized.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::io::detail {

/// "file.nwb: dataset '/units/id'": the prefix of every error about that dataset.
std::string dataset_where(const std::string& file, const std::string& dataset);

/// An HDF5 file opened for reading, with the name used in error messages.
class H5Reader {
public:
    /// Opens `path`; throws Error when it is missing or not HDF5. Used in the child process
    /// of run_isolated (hdf5_isolated.hpp): the library can crash on a damaged file.
    explicit H5Reader(const std::string& path);

    [[nodiscard]] hid_t file() const { return file_.get(); }
    [[nodiscard]] const std::string& name() const { return name_; }

    /// True when every component of `path` ("/units/spike_times") exists.
    [[nodiscard]] bool exists(const std::string& path) const;

    /// Number of elements of a dataset; throws Error when it is missing or not 1-D.
    [[nodiscard]] std::size_t length(const std::string& path) const;

    /// A 1-D numeric dataset as doubles (float or integer storage).
    [[nodiscard]] std::vector<double> read_numbers(const std::string& path) const;
    /// A 1-D integer dataset as int64 (any integer storage, signed or not).
    [[nodiscard]] std::vector<std::int64_t> read_integers(const std::string& path) const;
    /// A 1-D integer dataset as int64 in uninitialised storage filled on all cores where
    /// it is stored as int64 (hdf5_chunks.hpp): a recording's spike times.
    [[nodiscard]] UninitializedVector<std::int64_t> read_integer_column(const std::string& path) const;
    /// A 1-D integer dataset of indexes (0 to 2^32 - 1), such as each spike's neuron, as
    /// read_integer_column reads.
    [[nodiscard]] UninitializedVector<std::uint32_t> read_indexes(const std::string& path) const;
    /// A 2-D numeric dataset of shape (rows, 2) as pairs, row-major.
    [[nodiscard]] std::vector<double> read_pairs(const std::string& path) const;
    /// A 2-D numeric dataset of `rows` rows as doubles, row-major; `columns` gets its width.
    [[nodiscard]] std::vector<double> read_rows(const std::string& path, std::size_t rows, std::size_t& columns) const;
    /// A 2-D integer dataset of shape (rows, 2), row-major.
    [[nodiscard]] std::vector<std::int64_t> read_integer_pairs(const std::string& path) const;
    /// A 1-D (or scalar) string dataset, fixed or variable length.
    [[nodiscard]] std::vector<std::string> read_strings(const std::string& path) const;
    /// Names of the objects an object-reference dataset points to (last path component).
    [[nodiscard]] std::vector<std::string> read_reference_names(const std::string& path) const;

    /// The first element of a small string or numeric dataset, as text (for provenance);
    /// nullopt when the dataset is missing, empty or of another type.
    [[nodiscard]] std::optional<std::string> first_value_as_text(const std::string& path) const;

    /// A string attribute of the object at `path`, if present.
    [[nodiscard]] std::optional<std::string> string_attribute(const std::string& path, const std::string& name) const;
    /// Every string attribute of the object at `path`, by name.
    [[nodiscard]] std::map<std::string, std::string> string_attributes(const std::string& path) const;
    /// An integer attribute of the object at `path`, if present.
    [[nodiscard]] std::optional<std::int64_t> integer_attribute(const std::string& path,
                                                                const std::string& name) const;

    /// "file.nwb: dataset '/units/id'": the prefix of every error about that dataset.
    [[nodiscard]] std::string where(const std::string& path) const;

private:
    H5Handle open_dataset(const std::string& path) const;
    /// Reads the whole dataset into `values` (already sized), converting to `memory_type`.
    template <typename Vector>
    void read_all(const H5Handle& dataset, hid_t memory_type, Vector& values, const std::string& path) const;
    template <typename T>
    UninitializedVector<T> read_column(const std::string& path, hid_t native) const;
    H5Handle open_numeric(const std::string& path, bool integers_only, int rank, std::vector<hsize_t>& dims) const;

    std::string name_;
    H5Handle file_;
};

/// Splits `values` (rows of `width` values) into `expected_groups` groups by the
/// cumulative ends `ends` (NWB's VectorIndex), checking that they are monotone, stay within
/// the data and cover all of it; throws Error starting with `where`, the index dataset's
/// dataset_where. For tables handed back from run_isolated's child.
template <typename T>
std::vector<std::vector<T>> split_by_ends(const std::string& where, const std::vector<T>& values, const std::vector<std::int64_t>& ends,
                                          std::size_t expected_groups, std::size_t width = 1) {
    if (ends.size() != expected_groups) {
        throw Error(where + " has " + std::to_string(ends.size()) + " entries, expected " + std::to_string(expected_groups));
    }
    std::vector<std::vector<T>> groups;
    std::int64_t start = 0;
    for (const std::int64_t end : ends) {
        if (end < start || static_cast<std::size_t>(end) > values.size() / width) {  // no product that could wrap
            throw Error(where + " is not monotone or points past its data");
        }
        groups.emplace_back(values.begin() + start * static_cast<std::int64_t>(width),
                            values.begin() + end * static_cast<std::int64_t>(width));
        start = end;
    }
    if (static_cast<std::size_t>(start) * width != values.size()) {
        throw Error(where + " leaves values that belong to no entry");
    }
    return groups;
}

/// split_by_ends with the ends read from the dataset at `index_path`.
template <typename T>
std::vector<std::vector<T>> split_by_index(const H5Reader& file, const std::vector<T>& values, const std::string& index_path,
                                           std::size_t expected_groups, std::size_t width = 1) {
    return split_by_ends(file.where(index_path), values, file.read_integers(index_path), expected_groups, width);
}

/// Silences the HDF5 library's own error printing; errors are reported by the caller.
void silence_hdf5_errors();

}  // namespace spikeminer::io::detail
