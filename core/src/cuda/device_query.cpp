// Device query through the CUDA runtime (compiled by the host compiler, linked to cudart).
#include "spikeminer/core/device_query.hpp"

#include "spikeminer/core/error.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace spikeminer {

DeviceReport query_devices() {
    DeviceReport report;
    report.cuda_compiled = true;
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        report.status = status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver
                            ? std::string("no CUDA device or driver on this machine")
                            : std::string("no usable CUDA device: ") + cudaGetErrorString(status);
        cudaGetLastError();  // clear the sticky error so that later calls start clean
        return report;
    }
    if (count == 0) {
        report.status = "no CUDA device found";
        return report;
    }
    report.status = "ok";
    // Reading free memory needs each device current in turn; the caller's stays current.
    int current = 0;
    cudaGetDevice(&current);
    for (int index = 0; index < count; ++index) {
        cudaDeviceProp props{};
        if (cudaGetDeviceProperties(&props, index) != cudaSuccess) continue;
        DeviceInfo info;
        info.index = index;
        info.name = props.name;
        info.total_memory = props.totalGlobalMem;
        info.multiprocessors = props.multiProcessorCount;
        info.compute_major = props.major;
        info.compute_minor = props.minor;
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        if (cudaSetDevice(index) == cudaSuccess && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
            info.free_memory = free_bytes;
        }
        report.devices.push_back(info);
    }
    cudaSetDevice(current);
    return report;
}

int current_device() {
    int device = 0;
    const cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess) throw Error(std::string("the current CUDA device cannot be read: ") + cudaGetErrorString(status));
    return device;
}

void use_device(int index) {
    const cudaError_t status = cudaSetDevice(index);
    if (status != cudaSuccess) throw Error("CUDA device " + std::to_string(index) + " cannot be used: " + cudaGetErrorString(status));
}

}  // namespace spikeminer
