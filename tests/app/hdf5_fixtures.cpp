#include "hdf5_fixtures.hpp"

#include <stdexcept>

namespace spikeminer::test {
namespace {

void check(herr_t status, const std::string& what) {
    if (status < 0) throw std::runtime_error("HDF5 fixture: " + what);
}

hid_t checked(hid_t id, const std::string& what) {
    if (id < 0) throw std::runtime_error("HDF5 fixture: " + what);
    return id;
}

}  // namespace

H5Fixture::H5Fixture(const std::string& path) {
    file_ = checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "cannot create " + path);
    link_properties_ = checked(H5Pcreate(H5P_LINK_CREATE), "link property list");
    check(H5Pset_create_intermediate_group(link_properties_, 1), "intermediate groups");
}

H5Fixture::~H5Fixture() {
    try {
        close();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw
    }
}

void H5Fixture::close() {
    if (link_properties_ >= 0) H5Pclose(link_properties_);
    link_properties_ = H5I_INVALID_HID;
    if (file_ >= 0) {
        const herr_t status = H5Fclose(file_);
        file_ = H5I_INVALID_HID;
        check(status, "close");
    }
}

void H5Fixture::group(const std::string& path) {
    const hid_t group = checked(H5Gcreate2(file_, path.c_str(), link_properties_, H5P_DEFAULT, H5P_DEFAULT),
                                "group " + path);
    H5Gclose(group);
}

void H5Fixture::write(const std::string& path, hid_t file_type, hid_t memory_type, const void* data,
                      const std::vector<hsize_t>& dims) {
    const hid_t space = checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "space");
    const hid_t dataset =
        H5Dcreate2(file_, path.c_str(), file_type, space, link_properties_, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    checked(dataset, "dataset " + path);
    hsize_t elements = 1;
    for (const hsize_t d : dims) elements *= d;
    const herr_t status =
        elements > 0 ? H5Dwrite(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) : herr_t{0};
    H5Dclose(dataset);
    check(status, "write " + path);
}

void H5Fixture::int64s(const std::string& path, const std::vector<std::int64_t>& values) {
    write(path, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), {values.size()});
}

void H5Fixture::uint32s(const std::string& path, const std::vector<std::uint32_t>& values) {
    write(path, H5T_STD_U32LE, H5T_NATIVE_UINT32, values.data(), {values.size()});
}

void H5Fixture::doubles(const std::string& path, const std::vector<double>& values) {
    write(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), {values.size()});
}

void H5Fixture::floats(const std::string& path, const std::vector<float>& values) {
    write(path, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, values.data(), {values.size()});
}

void H5Fixture::double_rows(const std::string& path, const std::vector<double>& values, std::size_t rows) {
    write(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), {rows, values.size() / rows});
}

void H5Fixture::int64_pairs(const std::string& path, const std::vector<std::int64_t>& values) {
    write(path, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(), {values.size() / 2, 2});
}

void H5Fixture::strings(const std::string& path, const std::vector<std::string>& values) {
    const hid_t type = checked(H5Tcopy(H5T_C_S1), "string type");
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    std::vector<const char*> pointers;
    pointers.reserve(values.size());
    for (const auto& value : values) pointers.push_back(value.c_str());
    try {
        write(path, type, type, pointers.data(), {values.size()});
    } catch (...) {
        H5Tclose(type);
        throw;
    }
    H5Tclose(type);
}

void H5Fixture::claimed(const std::string& path, hid_t file_type, const std::vector<hsize_t>& dims) {
    const int rank = static_cast<int>(dims.size());
    std::vector<hsize_t> max_dims(dims.size(), H5S_UNLIMITED);
    std::vector<hsize_t> chunk(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) chunk[d] = dims[d] < 16 ? dims[d] : 16;
    const hid_t space = checked(H5Screate_simple(rank, dims.data(), max_dims.data()), "claimed space");
    const hid_t properties = checked(H5Pcreate(H5P_DATASET_CREATE), "dataset properties");
    check(H5Pset_chunk(properties, rank, chunk.data()), "chunk");
    const hid_t dataset = H5Dcreate2(file_, path.c_str(), file_type, space, link_properties_, properties, H5P_DEFAULT);
    H5Pclose(properties);
    H5Sclose(space);
    H5Dclose(checked(dataset, "claimed dataset " + path));
}

void H5Fixture::filtered_int64s(const std::string& path, const std::vector<std::int64_t>& values, hsize_t chunk,
                                const std::vector<H5Z_filter_t>& filters, bool raw_partial_chunk) {
    const hsize_t dims[1] = {values.size()};
    const hid_t space = checked(H5Screate_simple(1, dims, nullptr), "filtered space");
    const hid_t properties = checked(H5Pcreate(H5P_DATASET_CREATE), "dataset properties");
    check(H5Pset_chunk(properties, 1, &chunk), "chunk");
    for (const H5Z_filter_t filter : filters) check(filter == H5Z_FILTER_SHUFFLE ? H5Pset_shuffle(properties) : H5Pset_deflate(properties, 1), "filter");
    if (raw_partial_chunk) check(H5Pset_chunk_opts(properties, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS), "chunk options");
    const hid_t dataset = H5Dcreate2(file_, path.c_str(), H5T_STD_I64LE, space, link_properties_, properties, H5P_DEFAULT);
    H5Pclose(properties);
    H5Sclose(space);
    checked(dataset, "filtered dataset " + path);
    const herr_t status = H5Dwrite(dataset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(dataset);
    check(status, "write " + path);
}

void H5Fixture::int_attribute(const std::string& object, const std::string& name, std::int64_t value) {
    const hid_t space = checked(H5Screate(H5S_SCALAR), "scalar space");
    const hid_t attribute = H5Acreate_by_name(file_, object.c_str(), name.c_str(), H5T_STD_I64LE, space,
                                              H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    checked(attribute, "attribute " + name);
    const herr_t status = H5Awrite(attribute, H5T_NATIVE_INT64, &value);
    H5Aclose(attribute);
    check(status, "write attribute " + name);
}

void H5Fixture::string_attribute(const std::string& object, const std::string& name, const std::string& value) {
    const hid_t type = checked(H5Tcopy(H5T_C_S1), "string type");
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t space = checked(H5Screate(H5S_SCALAR), "scalar space");
    const hid_t attribute =
        H5Acreate_by_name(file_, object.c_str(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    const char* text = value.c_str();
    const herr_t status = attribute >= 0 ? H5Awrite(attribute, type, &text) : herr_t{-1};
    if (attribute >= 0) H5Aclose(attribute);
    H5Tclose(type);
    check(status, "string attribute " + name);
}

void nwb_skeleton(H5Fixture& file) {
    file.string_attribute("/", "nwb_version", "2.4.0");
    file.group("/units");
}

void spikeminer_root(H5Fixture& file, std::int64_t version, std::int64_t ticks_per_second) {
    file.string_attribute("/", "spikeminer_format", "spike-trains");
    file.int_attribute("/", "spikeminer_format_version", version);
    file.int_attribute("/", "ticks_per_second", ticks_per_second);
}

void good_units(H5Fixture& file) {
    nwb_skeleton(file);
    file.int64s("/units/id", {4, 9});
    file.doubles("/units/spike_times", {0.1, 0.2, 0.3, 0.15, 0.25, 0.35});
    file.int64s("/units/spike_times_index", {3, 6});
}

void good_spikeminer(H5Fixture& file, std::int64_t version) {
    spikeminer_root(file, version);
    file.strings("/neurons/labels", {"a", "b"});
    file.int64s("/spikes/times", {10, 20, 30});
    file.uint32s("/spikes/neurons", {0, 1, 0});
}

}  // namespace spikeminer::test
