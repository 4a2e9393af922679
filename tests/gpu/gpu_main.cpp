// Main of the GPU test executable. With no usable CUDA device it exits with the skip code
// that CTest reports as skipped, unless SPIKEMINER_REQUIRE_GPU=1 makes that a failure.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "spikeminer/core/device_query.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
constexpr int kSkipCode = 77;  // SKIP_RETURN_CODE in tests/gpu/CMakeLists.txt
}

int main(int argc, char** argv) {
    const spikeminer::DeviceReport report = spikeminer::query_devices();
    if (report.devices.empty()) {
        const char* require = std::getenv("SPIKEMINER_REQUIRE_GPU");
        if (require != nullptr && std::string(require) == "1") {
            std::fprintf(stderr, "SPIKEMINER_REQUIRE_GPU=1 but no GPU can be used: %s\n", report.status.c_str());
            return 1;
        }
        std::printf("GPU tests skipped: %s\n", report.status.c_str());
        return kSkipCode;
    }
    std::printf("GPU tests on %s\n", report.devices.front().name.c_str());
    return Catch::Session().run(argc, argv);
}
