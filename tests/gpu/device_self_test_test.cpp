#include "catch.hpp"

#include "spikeminer/core/device_query.hpp"

using namespace spikeminer;

TEST_CASE("the device reports a name, memory and multiprocessors") {
    const DeviceReport report = query_devices();
    REQUIRE(report.cuda_compiled);
    REQUIRE_FALSE(report.devices.empty());
    for (const DeviceInfo& device : report.devices) {
        CHECK_FALSE(device.name.empty());
        CHECK(device.total_memory > 0);
        CHECK(device.free_memory > 0);  // 0 when cudaMemGetInfo failed
        CHECK(device.free_memory <= device.total_memory);
        CHECK(device.multiprocessors > 0);
        CHECK(device.compute_major >= 7);
    }
}

TEST_CASE("CUB exclusive scan on the device equals the CPU scan") {
    // Sizes around block and tile boundaries, and one whose sum overflows 32 bits.
    const std::size_t n = GENERATE(std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{4097},
                                   std::size_t{1} << 20, (std::size_t{1} << 23) + 13);
    const DeviceSelfTest result = run_device_self_test(0, n);
    INFO(result.detail);
    CHECK(result.passed);
}
