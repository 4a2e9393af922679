#include "hdf5_write.hpp"

#include "hdf5_read.hpp"
#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>

namespace spikeminer::io::detail {
namespace {
constexpr hsize_t kChunkElements = hsize_t{1} << 18;
}

H5Writer::H5Writer(const std::string& path, std::string name) : name_(std::move(name)) {
    silence_hdf5_errors();
    file_ = H5Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) fail("cannot be created");
}

H5Writer H5Writer::open_existing(const std::string& path, std::string name) {
    silence_hdf5_errors();
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    if (!file.valid()) throw Error(name + ": cannot be opened to write");
    return H5Writer(std::move(name), std::move(file));
}

bool H5Writer::exists(const std::string& path) const { return path_exists(file_.get(), path); }

void H5Writer::remove(const std::string& path) {
    if (H5Ldelete(file_.get(), path.c_str(), H5P_DEFAULT) < 0) fail("cannot remove '" + path + "'");
}

void H5Writer::fail(const std::string& what) const { throw Error(name_ + ": " + what); }

void H5Writer::create_group(const std::string& path) {
    const H5Handle group(H5Gcreate2(file_.get(), path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) fail("cannot create group '" + path + "'");
}

void H5Writer::write_array(const std::string& path, hid_t file_type, hid_t memory_type, const void* data, int rank,
                           const hsize_t* dims) {
    const H5Handle space(H5Screate_simple(rank, dims, nullptr), H5Sclose);
    const H5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    hsize_t elements = 1;
    for (int d = 0; d < rank; ++d) elements *= dims[d];
    if (elements > 0) {
        hsize_t chunk[2] = {std::min(dims[0], kChunkElements), rank > 1 ? dims[1] : 1};
        H5Pset_chunk(properties.get(), rank, chunk);
        H5Pset_shuffle(properties.get());
        H5Pset_deflate(properties.get(), 1);
    }
    const H5Handle dataset(
        H5Dcreate2(file_.get(), path.c_str(), file_type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
        H5Dclose);
    if (!dataset.valid()) fail("cannot create dataset '" + path + "'");
    // A chunk of rows at a time (a whole compressed chunk each), so that a cancel stops it.
    const std::size_t row_bytes = H5Tget_size(memory_type) * (rank > 1 ? dims[1] : 1);
    for (hsize_t row = 0; elements > 0 && row < dims[0]; row += kChunkElements) {
        check_write_cancelled();
        const hsize_t start[2] = {row, 0};
        const hsize_t count[2] = {std::min(kChunkElements, dims[0] - row), rank > 1 ? dims[1] : 1};
        const H5Handle memory(H5Screate_simple(rank, count, nullptr), H5Sclose);
        H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
        const void* rows = static_cast<const char*>(data) + row * row_bytes;
        if (H5Dwrite(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, rows) < 0) {
            fail("cannot write dataset '" + path + "' (disk full?)");
        }
    }
}

void H5Writer::write(const std::string& path, std::span<const std::int64_t> values) {
    const hsize_t dims[1] = {values.size()};
    write_array(path, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), 1, dims);
}

void H5Writer::write(const std::string& path, std::span<const std::uint32_t> values) {
    const hsize_t dims[1] = {values.size()};
    write_array(path, H5T_STD_U32LE, H5T_NATIVE_UINT32, values.data(), 1, dims);
}

void H5Writer::write(const std::string& path, std::span<const double> values) {
    const hsize_t dims[1] = {values.size()};
    write_array(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), 1, dims);
}

void H5Writer::write_pairs(const std::string& path, std::span<const std::int64_t> values) {
    const hsize_t dims[2] = {values.size() / 2, 2};
    write_array(path, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), 2, dims);
}

void H5Writer::write_rows(const std::string& path, std::span<const double> values, std::size_t rows) {
    const hsize_t dims[2] = {rows, rows == 0 ? 0 : values.size() / rows};
    write_array(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), 2, dims);
}

void H5Writer::write_strings(const std::string& path, const std::vector<std::string>& values) {
    const H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    std::vector<const char*> pointers(values.size());
    std::transform(values.begin(), values.end(), pointers.begin(), [](const std::string& v) { return v.c_str(); });
    const hsize_t dims[1] = {values.size()};
    const H5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
    const H5Handle dataset(
        H5Dcreate2(file_.get(), path.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!dataset.valid()) fail("cannot create dataset '" + path + "'");
    if (!values.empty() && H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0) {
        fail("cannot write dataset '" + path + "'");
    }
}

void H5Writer::set_attribute(const std::string& object, const std::string& name, const std::string& value) {
    const H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    const H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const H5Handle attribute(
        H5Acreate_by_name(file_.get(), object.c_str(), name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    const char* text = value.c_str();
    if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), &text) < 0) {
        fail("cannot write attribute '" + name + "' of '" + object + "'");
    }
}

void H5Writer::set_attribute(const std::string& object, const std::string& name, std::int64_t value) {
    const H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const H5Handle attribute(H5Acreate_by_name(file_.get(), object.c_str(), name.c_str(), H5T_STD_I64LE,
                                               space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value) < 0) {
        fail("cannot write attribute '" + name + "' of '" + object + "'");
    }
}

void H5Writer::set_attribute(const std::string& object, const std::string& name,
                             const std::vector<std::string>& values) {
    const H5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    const hsize_t dims[1] = {values.size()};
    const H5Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
    std::vector<const char*> pointers(values.size());
    std::transform(values.begin(), values.end(), pointers.begin(), [](const std::string& v) { return v.c_str(); });
    const H5Handle attribute(H5Acreate_by_name(file_.get(), object.c_str(), name.c_str(), type.get(), space.get(),
                                               H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), pointers.data()) < 0) {
        fail("cannot write attribute '" + name + "' of '" + object + "'");
    }
}

void H5Writer::set_reference_attribute(const std::string& object, const std::string& name,
                                       const std::string& target) {
    hobj_ref_t reference{};
    if (H5Rcreate(&reference, file_.get(), target.c_str(), H5R_OBJECT, -1) < 0) {
        fail("cannot reference '" + target + "'");
    }
    const H5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    const H5Handle attribute(H5Acreate_by_name(file_.get(), object.c_str(), name.c_str(), H5T_STD_REF_OBJ,
                                               space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Aclose);
    if (!attribute.valid() || H5Awrite(attribute.get(), H5T_STD_REF_OBJ, &reference) < 0) {
        fail("cannot write attribute '" + name + "' of '" + object + "'");
    }
}

void H5Writer::close() {
    if (file_.valid() && H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("cannot be flushed (disk full?)");
    file_ = H5Handle();
}

}  // namespace spikeminer::io::detail
