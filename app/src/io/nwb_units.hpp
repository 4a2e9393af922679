#pragma once

#include "hdf5_read.hpp"

#include <string>
#include <vector>

namespace spikeminer::io::detail {

/// The name of each of the `units` rows of an NWB file's Units table, as the reader names its
/// units: the `label` column where there is one, else the row's id (its position where
/// /units/id is missing). Throws Error naming the dataset whose length is not `units`.
std::vector<std::string> nwb_unit_names(const H5Reader& file, std::size_t units);

}  // namespace spikeminer::io::detail
