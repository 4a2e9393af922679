#include "hdf5_probe.hpp"

#include "hdf5_handle.hpp"

#include "spikeminer/core/error.hpp"

#include <sys/stat.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace spikeminer::io::detail {
namespace {

// Datasets up to this size are read whole in the probe (their filters run too); larger
// ones only have their chunk index walked.
constexpr hsize_t kProbeReadBytes = hsize_t{1} << 20;

// Reads `points` values of `type` (converted to the native type) into a buffer. Variable-
// length values are not reclaimed: on a damaged file that could crash too, and the walk
// runs in a child whose memory goes with it.
template <typename Read>
void read_values(hid_t type, hssize_t points, Read&& read) {
    const H5Handle native(H5Tget_native_type(type, H5T_DIR_DEFAULT), H5Tclose);
    const std::size_t size = native.valid() ? H5Tget_size(native.get()) : 0;
    if (points <= 0 || size == 0 || static_cast<hsize_t>(points) * size > kProbeReadBytes) return;
    std::vector<unsigned char> buffer(static_cast<std::size_t>(points) * size);
    (void)read(native.get(), buffer.data());
}

void read_attribute(hid_t object, const char* name) {
    const H5Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid()) return;
    const H5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    const H5Handle space(H5Aget_space(attribute.get()), H5Sclose);
    read_values(type.get(), H5Sget_simple_extent_npoints(space.get()),
                [&](hid_t native, void* buffer) { return H5Aread(attribute.get(), native, buffer); });
}

void walk_dataset(hid_t dataset) {
    const H5Handle type(H5Dget_type(dataset), H5Tclose);
    const H5Handle space(H5Dget_space(dataset), H5Sclose);
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    hsize_t chunks = 0;
    if (H5Dget_num_chunks(dataset, space.get(), &chunks) >= 0) {
        for (hsize_t i = 0; i < chunks && i < 1'000'000; ++i) {
            hsize_t offset[H5S_MAX_RANK] = {};
            unsigned filter_mask = 0;
            haddr_t address = 0;
            hsize_t bytes = 0;
            if (H5Dget_chunk_info(dataset, space.get(), i, offset, &filter_mask, &address, &bytes) < 0) break;
        }
    }
    if (H5Tget_class(type.get()) == H5T_REFERENCE) {  // object references, followed as the NWB reader does
        if (points <= 0 || static_cast<hsize_t>(points) * sizeof(hobj_ref_t) > kProbeReadBytes) return;
        std::vector<hobj_ref_t> refs(static_cast<std::size_t>(points));
        if (H5Dread(dataset, H5T_STD_REF_OBJ, H5S_ALL, H5S_ALL, H5P_DEFAULT, refs.data()) < 0) return;
        for (hobj_ref_t& ref : refs) {
            char name[256];
            (void)H5Rget_name(dataset, H5R_OBJECT, &ref, name, sizeof name);
        }
        return;
    }
    read_values(type.get(), points,
                [&](hid_t native, void* buffer) { return H5Dread(dataset, native, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer); });
}

herr_t walk_object(hid_t file, const char* name, const H5O_info_t* info, void*) {
    const H5Handle object(H5Oopen(file, name, H5P_DEFAULT), H5Oclose);
    if (!object.valid()) return 0;
    for (hsize_t i = 0; i < info->num_attrs; ++i) {
        char attribute[1024];
        if (H5Aget_name_by_idx(object.get(), ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, attribute, sizeof attribute, H5P_DEFAULT) < 0 &&
            H5Aget_name_by_idx(object.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, attribute, sizeof attribute, H5P_DEFAULT) < 0) {
            continue;
        }
        read_attribute(object.get(), attribute);
    }
    if (info->type == H5O_TYPE_DATASET) walk_dataset(object.get());
    return 0;
}

}  // namespace

std::chrono::seconds structure_walk_limit(const std::string& path) {
    struct stat status {};
    const off_t bytes = stat(path.c_str(), &status) == 0 ? status.st_size : 0;
    long base = 10;
    if (const char* given = std::getenv("SPIKEMINER_HDF5_PROBE_SECONDS")) {
        char* end = nullptr;
        const long value = std::strtol(given, &end, 10);
        if (end != given && *end == '\0' && value >= 1 && value <= 3600) base = value;
    }
    return std::chrono::seconds(base + bytes / 10'000'000);
}

void walk_hdf5_structure(const std::string& path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    if (H5Fis_hdf5(path.c_str()) <= 0) return;  // the reader says what the file is not
    const H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file.valid()) H5Ovisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, walk_object, nullptr);
}

std::string crash_message(const std::string& path, const ChildEnd& end, std::chrono::seconds walk_limit) {
    if (end.kind == ChildEnd::Kind::Crashed && end.code == SIGALRM) {
        return path + ": the HDF5 library did not finish reading its structure in " + std::to_string(walk_limit.count()) +
               " s, or its data in " + std::to_string(10 * walk_limit.count()) + " s (a damaged file?)";
    }
    return path + ": the HDF5 library fails on this file's structure (" +
           (end.kind == ChildEnd::Kind::Crashed ? std::string(strsignal(end.code)) : "exit " + std::to_string(end.code)) +
           "): the file is damaged";
}

}  // namespace spikeminer::io::detail
