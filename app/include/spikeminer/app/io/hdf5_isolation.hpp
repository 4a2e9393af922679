#pragma once

namespace spikeminer::io {

/// HDF5 files are read in a child process: the HDF5 library (1.10) can crash or loop on a
/// damaged file, and there that ends the child only (an Error names the file). The fuzzers
/// turn this off, to see a fault in the readers' own code where it happens, at hundreds of
/// files a second instead of tens; each fault they find is then checked against the program
/// with its child processes.
void set_hdf5_reads_isolated(bool isolated);

}  // namespace spikeminer::io
