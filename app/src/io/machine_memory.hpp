#pragma once

#include <cstddef>

namespace spikeminer::io::detail {

/// This machine's physical memory in bytes (SIZE_MAX when unknown): what a file's claims
/// (an HDF5 header's sizes, an edge list's largest id) are checked against before anything
/// is allocated for them.
std::size_t physical_memory_bytes();

}  // namespace spikeminer::io::detail
