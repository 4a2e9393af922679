#pragma once

#include "child_process.hpp"

#include <chrono>
#include <string>

namespace spikeminer::io::detail {

/// Walks all of an HDF5 file's metadata in this process: every object, every attribute's
/// value, every dataset's type, shape and chunk index, and the data of small datasets. The
/// HDF5 library (1.10) can crash or loop on a damaged file; the child process that reads a
/// file (run_isolated) walks it first, so that such a file ends the child there.
void walk_hdf5_structure(const std::string& path);

/// How long walking the structure of the file at `path` may take before it counts as a
/// loop: 10 s (or SPIKEMINER_HDF5_PROBE_SECONDS, 1 to 3600: more for slow network storage,
/// less for the fuzzers) plus 1 s for every 10 MB of file. A walk takes milliseconds.
std::chrono::seconds structure_walk_limit(const std::string& path);

/// The message for a child that crashed, failed, or (ended by SIGALRM) did not finish its
/// structure walk within `walk_limit` or its read within ten times that, reading `path`:
/// "PATH: the HDF5 library fails on this file's structure (Segmentation fault): the file is
/// damaged".
std::string crash_message(const std::string& path, const ChildEnd& end, std::chrono::seconds walk_limit);

}  // namespace spikeminer::io::detail
