// The simulator's network specs (`simulate --chain/--link/--assembly/--modulation`) on
// arbitrary text; the first byte picks the kind. A spec that parses is also simulated
// briefly on a small network, so that what the parser lets through is what the
// simulator accepts.
#include "fuzz_input.hpp"

#include "spikeminer/app/network_spec.hpp"
#include "spikeminer/simulator/simulate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace spikeminer;
    if (size == 0) return 0;
    const std::string spec(reinterpret_cast<const char*>(data + 1), size - 1);
    fuzz::expect_only_errors([&] {
        simulator::NetworkConfig config;
        config.neurons = 40;
        config.duration_s = 0.5;
        switch (data[0] % 4) {
            case 0: config.chains.push_back(parse_chain(spec, config.step_s)); break;
            case 1: config.links.push_back(parse_link(spec, config.step_s)); break;
            case 2: config.assemblies.push_back(parse_assembly(spec, config.step_s)); break;
            default: config.modulation = parse_modulation(spec); break;
        }
        (void)simulator::simulate(config);
    });
    return 0;
}
