#include "hdf5_read.hpp"

#include "hdf5_chunks.hpp"

#include "machine_memory.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <sstream>
#include <utility>

namespace spikeminer::io::detail {
namespace {

// Deflate, the filter of NWB and spikeminer files, compresses at most about 1032:1.
constexpr double kMostCompression = 1100;

// A header can claim any size; refuse before allocating what the machine cannot hold, and
// a dataset claiming far more than the file stores of it: its chunks were never written
// (a damaged or truncated file), and the library would hand back fill values for them.
void check_claimed_size(hid_t dataset, const std::string& where, hsize_t elements, std::size_t element_bytes) {
    const std::size_t memory = physical_memory_bytes();
    if (elements > memory / element_bytes) {
        throw Error(where + " claims " + std::to_string(elements) + " elements (" +
                    std::to_string(elements * element_bytes >> 20) + " MiB), more than this machine's memory (" +
                    std::to_string(memory >> 20) + " MiB): the file is damaged or too large");
    }
    const H5Handle type(H5Dget_type(dataset), H5Tclose);
    const double declared = static_cast<double>(elements) * static_cast<double>(H5Tget_size(type.get()));  // no wrap-around
    const hsize_t stored = H5Dget_storage_size(dataset);
    if (declared > 0x1p20 && declared > static_cast<double>(stored) * kMostCompression) {
        throw Error(where + " claims " + std::to_string(elements) + " elements (" +
                    std::to_string(static_cast<std::uint64_t>(declared / 0x1p20)) + " MiB) but the file stores " + std::to_string(stored) +
                    " bytes of them: most were never written (a damaged or truncated file)");
    }
}

const char* class_name(H5T_class_t type_class) {
    switch (type_class) {
        case H5T_INTEGER: return "integers";
        case H5T_FLOAT: return "floating-point numbers";
        case H5T_STRING: return "strings";
        case H5T_COMPOUND: return "compound records";
        case H5T_REFERENCE: return "object references";
        case H5T_ENUM: return "enumerations";
        case H5T_ARRAY: return "arrays";
        case H5T_VLEN: return "variable-length sequences";
        default: return "an unsupported type";
    }
}

std::string last_component(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Elements of an attribute's dataspace: 1 for a scalar, 0 for a null one, -1 if unreadable.
// The scalar readers check it, since H5Aread fills as many elements as there are.
hssize_t attribute_elements(const H5Handle& attribute) {
    const H5Handle space(H5Aget_space(attribute.get()), H5Sclose);
    return H5Sget_simple_extent_npoints(space.get());
}

}  // namespace

template <typename Vector>
void H5Reader::read_all(const H5Handle& dataset, hid_t memory_type, Vector& values,
                        const std::string& path) const {
    if (values.empty() || read_chunks_in_parallel(dataset.get(), memory_type, values.data(), values.size(), where(path))) return;
    if (H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
        throw Error(where(path) + " cannot be read (damaged or truncated file?)");
    }
}

void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

H5Reader::H5Reader(const std::string& path) : name_(path) {
    silence_hdf5_errors();
    check_input_file(path);
    if (H5Fis_hdf5(path.c_str()) <= 0) throw Error(path + ": not an HDF5 file");
    file_ = H5Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) throw Error(path + ": the HDF5 library cannot open it (damaged or truncated file?)");
}

std::string dataset_where(const std::string& file, const std::string& dataset) { return file + ": dataset '" + dataset + "'"; }

std::string H5Reader::where(const std::string& path) const { return dataset_where(name_, path); }

bool H5Reader::exists(const std::string& path) const { return path_exists(file_.get(), path); }

H5Handle H5Reader::open_dataset(const std::string& path) const {
    if (!exists(path)) throw Error(where(path) + " is missing");
    H5Handle dataset(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset.valid()) throw Error(name_ + ": '" + path + "' is not a dataset");
    return dataset;
}

std::size_t H5Reader::length(const std::string& path) const {
    const H5Handle dataset = open_dataset(path);
    const H5Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank == 0) return 1;
    if (rank != 1) throw Error(where(path) + " has " + std::to_string(rank) + " dimensions, expected 1");
    hsize_t dims[1] = {0};
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    return static_cast<std::size_t>(dims[0]);
}

H5Handle H5Reader::open_numeric(const std::string& path, bool integers_only, int rank,
                                std::vector<hsize_t>& dims) const {
    H5Handle dataset = open_dataset(path);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (integers_only && type_class != H5T_INTEGER) {
        throw Error(where(path) + " holds " + class_name(type_class) + ", expected integers");
    }
    if (type_class != H5T_INTEGER && type_class != H5T_FLOAT) {
        throw Error(where(path) + " holds " + class_name(type_class) + ", expected numbers");
    }
    const H5Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const int actual_rank = H5Sget_simple_extent_ndims(space.get());
    dims.assign(static_cast<std::size_t>(std::max(actual_rank, 1)), 1);
    if (actual_rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    const bool scalar_as_vector = rank == 1 && actual_rank == 0;
    if (actual_rank != rank && !scalar_as_vector) {
        throw Error(where(path) + " has " + std::to_string(actual_rank) + " dimensions, expected " +
                    std::to_string(rank));
    }
    hsize_t elements = 1;
    for (hsize_t d : dims) elements *= d;
    check_claimed_size(dataset.get(), where(path), elements, 8);
    return dataset;
}

std::vector<double> H5Reader::read_numbers(const std::string& path) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, false, 1, dims);
    std::vector<double> values(dims[0]);
    read_all(dataset, H5T_NATIVE_DOUBLE, values, path);
    return values;
}

std::vector<std::int64_t> H5Reader::read_integers(const std::string& path) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, true, 1, dims);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    if (H5Tget_sign(type.get()) == H5T_SGN_NONE && H5Tget_size(type.get()) >= 8) {
        // uint64 storage: read as such and refuse values that int64 cannot hold.
        std::vector<std::uint64_t> raw(dims[0]);
        read_all(dataset, H5T_NATIVE_UINT64, raw, path);
        std::vector<std::int64_t> values(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] > static_cast<std::uint64_t>(INT64_MAX)) {
                throw Error(where(path) + " element " + std::to_string(i) + " is " + std::to_string(raw[i]) +
                            ", beyond any valid count");
            }
            values[i] = static_cast<std::int64_t>(raw[i]);
        }
        return values;
    }
    std::vector<std::int64_t> values(dims[0]);
    read_all(dataset, H5T_NATIVE_INT64, values, path);
    return values;
}

// The integer dataset at `path` in uninitialised storage: read as it is when it is stored as
// `native`, else through read_integers, each value checked to fit T.
template <typename T>
UninitializedVector<T> H5Reader::read_column(const std::string& path, hid_t native) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, true, 1, dims);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    UninitializedVector<T> values;
    if (H5Tequal(type.get(), native) > 0) {
        values.resize(dims[0]);
        read_all(dataset, native, values, path);
        return values;
    }
    const std::vector<std::int64_t> wide = read_integers(path);
    values.resize(wide.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
        if (!std::in_range<T>(wide[i])) {
            throw Error(where(path) + " element " + std::to_string(i) + " is " + std::to_string(wide[i]) + ", not an index");
        }
        values[i] = static_cast<T>(wide[i]);
    }
    return values;
}

UninitializedVector<std::int64_t> H5Reader::read_integer_column(const std::string& path) const {
    return read_column<std::int64_t>(path, H5T_NATIVE_INT64);
}

UninitializedVector<std::uint32_t> H5Reader::read_indexes(const std::string& path) const {
    return read_column<std::uint32_t>(path, H5T_NATIVE_UINT32);
}

std::vector<double> H5Reader::read_pairs(const std::string& path) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, false, 2, dims);
    if (dims[1] != 2) throw Error(where(path) + " has " + std::to_string(dims[1]) + " columns, expected 2");
    std::vector<double> values(dims[0] * 2);
    read_all(dataset, H5T_NATIVE_DOUBLE, values, path);
    return values;
}

std::vector<double> H5Reader::read_rows(const std::string& path, std::size_t rows, std::size_t& columns) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, false, 2, dims);
    if (dims[0] != rows) throw Error(where(path) + " has " + std::to_string(dims[0]) + " rows, expected " + std::to_string(rows));
    columns = dims[1];
    std::vector<double> values(dims[0] * dims[1]);
    read_all(dataset, H5T_NATIVE_DOUBLE, values, path);
    return values;
}

std::vector<std::int64_t> H5Reader::read_integer_pairs(const std::string& path) const {
    std::vector<hsize_t> dims;
    const H5Handle dataset = open_numeric(path, true, 2, dims);
    if (dims[1] != 2) throw Error(where(path) + " has " + std::to_string(dims[1]) + " columns, expected 2");
    std::vector<std::int64_t> values(dims[0] * 2);
    read_all(dataset, H5T_NATIVE_INT64, values, path);
    return values;
}

std::vector<std::string> H5Reader::read_strings(const std::string& path) const {
    const H5Handle dataset = open_dataset(path);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING) {
        throw Error(where(path) + " holds " + class_name(H5Tget_class(type.get())) + ", expected strings");
    }
    const H5Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0) throw Error(where(path) + " has an unreadable shape");
    const bool variable = H5Tis_variable_str(type.get()) > 0;
    // Checked before any allocation: each element costs a std::string plus its bytes.
    check_claimed_size(dataset.get(), where(path), static_cast<hsize_t>(count),
                       sizeof(std::string) + (variable ? sizeof(char*) : H5Tget_size(type.get())));
    std::vector<std::string> strings(static_cast<std::size_t>(count));
    if (count == 0) return strings;
    if (variable) {
        const H5Handle memtype(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(memtype.get(), H5T_VARIABLE);
        H5Tset_cset(memtype.get(), H5Tget_cset(type.get()));  // HDF5 converts no ASCII <-> UTF-8
        std::vector<char*> raw(static_cast<std::size_t>(count), nullptr);
        read_all(dataset, memtype.get(), raw, path);
        for (std::size_t i = 0; i < raw.size(); ++i) strings[i] = raw[i] != nullptr ? raw[i] : "";
        H5Dvlen_reclaim(memtype.get(), space.get(), H5P_DEFAULT, raw.data());
        return strings;
    }
    const std::size_t width = H5Tget_size(type.get());
    std::vector<char> raw(static_cast<std::size_t>(count) * width);
    read_all(dataset, type.get(), raw, path);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        const char* begin = raw.data() + i * width;
        std::size_t len = 0;
        while (len < width && begin[len] != '\0') ++len;
        while (len > 0 && begin[len - 1] == ' ') --len;  // space-padded strings
        strings[i].assign(begin, len);
    }
    return strings;
}

std::vector<std::string> H5Reader::read_reference_names(const std::string& path) const {
    const H5Handle dataset = open_dataset(path);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_REFERENCE) {
        throw Error(where(path) + " holds " + class_name(H5Tget_class(type.get())) + ", expected object references");
    }
    const std::size_t count = length(path);
    check_claimed_size(dataset.get(), where(path), count, sizeof(hobj_ref_t));
    std::vector<hobj_ref_t> refs(count);
    read_all(dataset, H5T_STD_REF_OBJ, refs, path);
    std::vector<std::string> names(count);
    for (std::size_t i = 0; i < count; ++i) {
        const ssize_t size = H5Rget_name(dataset.get(), H5R_OBJECT, &refs[i], nullptr, 0);
        if (size <= 0) throw Error(where(path) + " element " + std::to_string(i) + " points nowhere");
        std::string target(static_cast<std::size_t>(size) + 1, '\0');
        H5Rget_name(dataset.get(), H5R_OBJECT, &refs[i], target.data(), target.size());
        target.resize(static_cast<std::size_t>(size));
        names[i] = last_component(target);
    }
    return names;
}

std::optional<std::string> H5Reader::first_value_as_text(const std::string& path) const {
    if (!exists(path)) return std::nullopt;
    const H5Handle dataset = open_dataset(path);
    const H5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class == H5T_STRING) {
        const auto values = read_strings(path);
        if (!values.empty()) return values.front();
    } else if (type_class == H5T_INTEGER || type_class == H5T_FLOAT) {
        const auto values = read_numbers(path);
        if (!values.empty()) {
            std::ostringstream text;
            text << values.front();
            return text.str();
        }
    }
    return std::nullopt;
}

std::optional<std::string> H5Reader::string_attribute(const std::string& path, const std::string& name) const {
    if (path != "/" && !exists(path)) return std::nullopt;
    if (H5Aexists_by_name(file_.get(), path.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
    const H5Handle attribute(H5Aopen_by_name(file_.get(), path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                             H5Aclose);
    const H5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING || attribute_elements(attribute) != 1) return std::nullopt;
    if (H5Tis_variable_str(type.get()) > 0) {
        const H5Handle memtype(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(memtype.get(), H5T_VARIABLE);
        H5Tset_cset(memtype.get(), H5Tget_cset(type.get()));  // HDF5 converts no ASCII <-> UTF-8
        char* raw = nullptr;
        if (H5Aread(attribute.get(), memtype.get(), &raw) < 0 || raw == nullptr) return std::nullopt;
        std::string value(raw);
        H5free_memory(raw);
        return value;
    }
    std::string value(H5Tget_size(type.get()), '\0');
    if (H5Aread(attribute.get(), type.get(), value.data()) < 0) return std::nullopt;
    value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
    return value;
}

std::map<std::string, std::string> H5Reader::string_attributes(const std::string& path) const {
    std::vector<std::string> names;
    const auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(name);
        return 0;
    };
    H5Aiterate_by_name(file_.get(), path.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names, H5P_DEFAULT);
    std::map<std::string, std::string> attributes;
    for (const auto& name : names) {
        if (auto value = string_attribute(path, name)) attributes[name] = std::move(*value);
    }
    return attributes;
}

std::optional<std::int64_t> H5Reader::integer_attribute(const std::string& path, const std::string& name) const {
    if (path != "/" && !exists(path)) return std::nullopt;
    if (H5Aexists_by_name(file_.get(), path.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
    const H5Handle attribute(H5Aopen_by_name(file_.get(), path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                             H5Aclose);
    const H5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_INTEGER) {
        throw Error(name_ + ": attribute '" + name + "' of '" + path + "' holds " +
                    class_name(H5Tget_class(type.get())) + ", expected an integer");
    }
    if (const hssize_t elements = attribute_elements(attribute); elements != 1) {
        throw Error(name_ + ": attribute '" + name + "' of '" + path + "' holds " + std::to_string(elements) +
                    " values, expected one integer");
    }
    std::int64_t value = 0;
    if (H5Aread(attribute.get(), H5T_NATIVE_INT64, &value) < 0) return std::nullopt;
    return value;
}

}  // namespace spikeminer::io::detail
