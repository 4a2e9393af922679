#pragma once

#include "hdf5_handle.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spikeminer::io::detail {

/// A new HDF5 file (truncating any old one) and typed writers for the project's layouts.
/// Large arrays are chunked and deflate-compressed. Throws Error naming `name` on failure.
class H5Writer {
public:
    H5Writer(const std::string& path, std::string name);
    /// An existing HDF5 file, opened to add to it (results.nwb's copy of the input).
    static H5Writer open_existing(const std::string& path, std::string name);

    /// True when the object at `path` exists (each of its parents does too).
    [[nodiscard]] bool exists(const std::string& path) const;
    /// Unlinks the object at `path` (an earlier run's group that this run's replaces).
    void remove(const std::string& path);

    void create_group(const std::string& path);
    void write(const std::string& path, std::span<const std::int64_t> values);
    void write(const std::string& path, std::span<const std::uint32_t> values);
    void write(const std::string& path, std::span<const double> values);
    /// A (rows, 2) table of int64, row-major.
    void write_pairs(const std::string& path, std::span<const std::int64_t> values);
    /// A 2-D float64 dataset of `rows` rows, from row-major values.
    void write_rows(const std::string& path, std::span<const double> values, std::size_t rows);
    void write_strings(const std::string& path, const std::vector<std::string>& values);
    void set_attribute(const std::string& object, const std::string& name, const std::string& value);
    void set_attribute(const std::string& object, const std::string& name, std::int64_t value);
    void set_attribute(const std::string& object, const std::string& name, const std::vector<std::string>& values);
    /// An attribute holding an object reference to `target` (NWB's VectorIndex.target).
    void set_reference_attribute(const std::string& object, const std::string& name, const std::string& target);
    /// Flushes and closes; a write error shows up here at the latest.
    void close();

private:
    H5Writer(std::string name, H5Handle file) : name_(std::move(name)), file_(std::move(file)) {}
    void write_array(const std::string& path, hid_t file_type, hid_t memory_type, const void* data, int rank,
                     const hsize_t* dims);
    [[noreturn]] void fail(const std::string& what) const;

    std::string name_;
    H5Handle file_;
};

}  // namespace spikeminer::io::detail
