#pragma once

#include "child_process.hpp"

#include <string>

namespace spikeminer::io::detail {

/// Walks all of an HDF5 file's metadata in a child process before this process opens it:
/// every object, every attribute's value, every dataset's type, shape and chunk index,
/// and the data of small datasets. The HDF5 library (1.10) can crash or loop on a damaged
/// file; here that ends the child, and this throws Error naming the file instead. A file
/// that passes is not probed again by this process (same size and time). Where no child
/// can be started the probe is skipped.
void probe_hdf5_file(const std::string& path);

/// "PATH: the HDF5 library fails on this file's structure (Segmentation fault): the file is
/// damaged": the message for a child that crashed or failed reading `path`.
std::string crash_message(const std::string& path, const ChildEnd& end);

}  // namespace spikeminer::io::detail
