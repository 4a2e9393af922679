#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace spikeminer {

/// One CUDA device as the runtime reports it.
struct DeviceInfo {
    int index = 0;
    std::string name;
    std::size_t total_memory = 0;  ///< bytes
    std::size_t free_memory = 0;   ///< bytes, at the time of the query
    int multiprocessors = 0;
    int compute_major = 0;
    int compute_minor = 0;
};

/// What the program can use for GPU work.
struct DeviceReport {
    bool cuda_compiled = false;  ///< this build has CUDA engines
    std::string status;          ///< "ok", or why no device can be used
    std::vector<DeviceInfo> devices;
};

/// Lists the CUDA devices. Works in a build without CUDA (status says so) and on a
/// machine without a driver (status gives the runtime's reason).
DeviceReport query_devices();

/// Makes device `index` the one this process's GPU work runs on (when it is set before
/// that work begins). Throws Error when it cannot; does nothing in a build without CUDA.
void use_device(int index);

/// The device this thread's GPU work runs on (a new thread's is device 0); 0 in a build
/// without CUDA.
int current_device();

/// Result of a tiny end-to-end kernel check on one device.
struct DeviceSelfTest {
    bool passed = false;
    double bandwidth_gbs = 0;  ///< the scan's rate (12 bytes per element moved), when it passed
    std::string detail;        ///< what was run and what was compared
};

/// Runs an exclusive scan of pseudo-random counts on the device (CUB) and compares it
/// with the CPU. Throws Error when the build has no CUDA or the device fails.
DeviceSelfTest run_device_self_test(int device, std::size_t n);

}  // namespace spikeminer
