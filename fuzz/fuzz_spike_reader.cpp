// One spike reader on arbitrary bytes, with the ground truth where the layout has it.
// Built once per format (FUZZ_FORMAT: csv, text, spikeminer, nwb, waverepo); CSV and text
// read gzip too, as zlib takes either.
#include "fuzz_input.hpp"

#include "spikeminer/app/io/hdf5_isolation.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/app/io/spike_format.hpp"

// HDF5 files are read in this process (set_hdf5_reads_isolated): a fault of the library
// ends the run here, and scripts/fuzz.sh checks each against the program itself.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    spikeminer::io::set_hdf5_reads_isolated(false);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace spikeminer;
    const std::string path = fuzz::write_input(data, size, ".in");
    io::ReadOptions options;
    options.format = io::parse_spike_format(FUZZ_FORMAT);
    fuzz::expect_only_errors([&] { (void)io::read_recording(path, options); });
    return 0;
}
