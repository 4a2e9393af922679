// The run config (`run --config FILE`) on arbitrary text: parsed over the defaults, then
// validated, as `spikeminer run` does before any work.
#include "fuzz_input.hpp"

#include "spikeminer/app/pipeline/run_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace spikeminer;
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expect_only_errors([&] {
        pipeline::RunConfig config;
        pipeline::apply_json(config, text, "run.json");
        pipeline::validate(config);
    });
    return 0;
}
