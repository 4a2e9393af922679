#pragma once

#include "spikeminer/mining/mine.hpp"

#include <string>

namespace spikeminer::io::detail {

class H5Writer;
class H5Reader;
class Writer;
class Reader;

/// The /neurons/labels and /mining datasets of a mining result, into an open file.
void write_mining_group(H5Writer& file, const SpikeTrains& trains, const mining::MiningResult& result);

/// The mining-results HDF5 layout (mining_h5.cpp has the layout).
void write_mining_h5(const std::string& path, const std::string& name, const SpikeTrains& trains,
                     const mining::MiningResult& result);
mining::MiningResult read_mining_h5(const std::string& path);

/// The /mining datasets of an open file, checked for type and shape, handed to `out`; in
/// the child process of run_isolated (hdf5_isolated.hpp).
void send_mining_group(const H5Reader& file, Writer& out);
/// What send_mining_group handed over, as episodes and levels; throws Error naming the
/// dataset of `path` when an index, an id (from 0 to num_neurons - 1), a gap or a count
/// is wrong.
mining::MiningResult receive_mining_group(Reader& in, const std::string& path, std::size_t num_neurons);

}  // namespace spikeminer::io::detail
