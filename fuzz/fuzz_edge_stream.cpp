// The edge-stream reader (`dyngraph`'s input) on arbitrary bytes, with weights signed or
// not (the first byte decides).
#include "fuzz_input.hpp"

#include "spikeminer/app/io/edge_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace spikeminer;
    if (size == 0) return 0;
    io::EdgeStreamOptions options;
    options.columns = io::parse_stream_columns("src,dst,weight,time");
    options.signed_weights = (data[0] & 1) != 0;
    const std::string path = fuzz::write_input(data + 1, size - 1, ".stream");
    fuzz::expect_only_errors([&] { (void)io::read_edge_stream(path, options); });
    return 0;
}
