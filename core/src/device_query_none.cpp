// Device query for builds without CUDA: nothing to use, and saying so.
#include "spikeminer/core/device_query.hpp"

#include "spikeminer/core/error.hpp"

namespace spikeminer {

DeviceReport query_devices() {
    DeviceReport report;
    report.cuda_compiled = false;
    report.status = "this build has no CUDA support (nvcc was not found at configure time)";
    return report;
}

void use_device(int /*index*/) {}

int current_device() { return 0; }

DeviceSelfTest run_device_self_test(int /*device*/, std::size_t /*n*/) {
    throw Error("this build has no CUDA support: no device self-test can run");
}

}  // namespace spikeminer
