#pragma once

#include <hdf5.h>

#include <cstddef>
#include <string>

namespace spikeminer::io::detail {

/// Reads the whole of a 1-D dataset into `out` (`elements` values of `memory_type`) chunk
/// by chunk: the stored chunks are read as they are (H5Dread_chunk), then inflated and
/// unshuffled on all cores. Only for a chunked dataset stored as `memory_type` itself whose
/// filters are deflate and shuffle (what spikeminer and most NWB writers use); for any other
/// layout it reads nothing and returns false, and the caller reads with H5Dread. Throws
/// Error starting with `where` when a chunk does not inflate to its size.
///
/// The threads are std::threads: this runs in the reading process (hdf5_isolated.hpp),
/// forked from one whose OpenMP pool the fork did not copy.
bool read_chunks_in_parallel(hid_t dataset, hid_t memory_type, void* out, std::size_t elements, const std::string& where);

}  // namespace spikeminer::io::detail
