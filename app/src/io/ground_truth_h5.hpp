#pragma once

#include "hdf5_read.hpp"
#include "hdf5_write.hpp"

#include "spikeminer/simulator/simulate.hpp"

namespace spikeminer::io::detail {

/// The /ground_truth group of a spikeminer HDF5 file: embedded chains and assemblies as
/// ragged arrays (values plus cumulative-end indexes, as NWB does), and the configuration.
void write_ground_truth(H5Writer& file, const simulator::GroundTruth& truth);
simulator::GroundTruth read_ground_truth_group(const H5Reader& file);

}  // namespace spikeminer::io::detail
