#pragma once
// Writes HDF5 fixtures with the C API directly, so that tests can build files the
// project's own writers would never produce (wrong types, broken indexes, huge claims).

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::test {

/// A new HDF5 file (truncating any old one). Every dataset path may name groups that
/// do not exist yet: they are created on the way. Throws std::runtime_error when the
/// HDF5 library refuses, so a broken fixture never passes for a reader error.
class H5Fixture {
public:
    explicit H5Fixture(const std::string& path);
    ~H5Fixture();
    H5Fixture(const H5Fixture&) = delete;
    H5Fixture& operator=(const H5Fixture&) = delete;

    void group(const std::string& path);
    void int64s(const std::string& path, const std::vector<std::int64_t>& values);
    void uint32s(const std::string& path, const std::vector<std::uint32_t>& values);
    void doubles(const std::string& path, const std::vector<double>& values);
    void floats(const std::string& path, const std::vector<float>& values);
    /// Variable-length UTF-8 strings.
    void strings(const std::string& path, const std::vector<std::string>& values);
    /// A (rows, values / rows) float64 table, row-major.
    void double_rows(const std::string& path, const std::vector<double>& values, std::size_t rows);
    /// A (rows, 2) int64 table, row-major.
    void int64_pairs(const std::string& path, const std::vector<std::int64_t>& values);
    /// A chunked dataset of the given shape whose data is never written: its header
    /// claims the size, the file stays tiny.
    void claimed(const std::string& path, hid_t file_type, const std::vector<hsize_t>& dims);

    /// int64 values in chunks of `chunk`, through `filters` (H5Z_FILTER_SHUFFLE,
    /// H5Z_FILTER_DEFLATE) in that order; with `raw_partial_chunk`, the last partial chunk
    /// is stored unfiltered (H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS).
    void filtered_int64s(const std::string& path, const std::vector<std::int64_t>& values, hsize_t chunk,
                         const std::vector<H5Z_filter_t>& filters, bool raw_partial_chunk = false);

    void int_attribute(const std::string& object, const std::string& name, std::int64_t value);
    void string_attribute(const std::string& object, const std::string& name, const std::string& value);

    /// Flushes and closes the file (also done by the destructor).
    void close();

private:
    void write(const std::string& path, hid_t file_type, hid_t memory_type, const void* data,
               const std::vector<hsize_t>& dims);

    hid_t file_ = H5I_INVALID_HID;
    hid_t link_properties_ = H5I_INVALID_HID;
};

/// The skeleton of an NWB file: root attribute nwb_version and a /units group.
void nwb_skeleton(H5Fixture& file);

/// A valid spikeminer format version 1 root: the attributes the reader requires.
void spikeminer_root(H5Fixture& file, std::int64_t version = 1, std::int64_t ticks_per_second = 1'000'000);

/// A well-formed NWB Units table of two units (ids 4 and 9), three spikes each.
void good_units(H5Fixture& file);

/// A well-formed spikeminer file with two neurons and three spikes.
void good_spikeminer(H5Fixture& file, std::int64_t version = 1);

}  // namespace spikeminer::test
