// The graph reader (`cliques`' input) on arbitrary bytes: an HDF5 graph when the bytes
// carry HDF5's signature, else an edge list; seeded with both.
#include "fuzz_input.hpp"

#include "spikeminer/app/io/hdf5_isolation.hpp"
#include "spikeminer/app/io/edge_list.hpp"

// HDF5 files are read in this process (set_hdf5_reads_isolated): a fault of the library
// ends the run here, and scripts/fuzz.sh checks each against the program itself.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    spikeminer::io::set_hdf5_reads_isolated(false);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace spikeminer;
    const std::string path = fuzz::write_input(data, size, ".graph");
    fuzz::expect_only_errors([&] { (void)io::read_graph(path); });
    return 0;
}
