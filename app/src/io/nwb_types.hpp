#pragma once
// What makes an HDF5 object an NWB one: its type, the namespace that defines it, and an id.

#include "hdf5_write.hpp"

#include <string>

namespace spikeminer::io::detail {

/// Sets the `namespace`, `neurodata_type` and a new `object_id` (a UUID) attribute of `object`.
void mark(H5Writer& file, const std::string& object, const char* name_space, const char* type);

}  // namespace spikeminer::io::detail
