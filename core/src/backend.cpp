#include "spikeminer/core/backend.hpp"

#include "spikeminer/core/device_query.hpp"

namespace spikeminer {

std::string backend_name(Backend backend) {
    switch (backend) {
        case Backend::Auto: return "auto";
        case Backend::Cpu: return "cpu";
        case Backend::Cuda: return "gpu";
    }
    return "auto";
}

Backend parse_backend(const std::string& name) {
    if (name == "auto") return Backend::Auto;
    if (name == "cpu") return Backend::Cpu;
    if (name == "gpu" || name == "cuda") return Backend::Cuda;
    throw UsageError("unknown backend '" + name + "': choose auto, cpu or gpu");
}

BackendChoice choose_backend(Backend requested, const std::string& cpu_quicker) {
    if (requested == Backend::Cpu) return {Backend::Cpu, {}};
    const DeviceReport report = query_devices();
    if (report.devices.empty()) {
        if (requested == Backend::Cuda) throw Error("the GPU backend was asked for, but no GPU can be used: " + report.status);
        return {Backend::Cpu, "auto chose the CPU: no GPU (" + report.status + ")"};
    }
    if (requested == Backend::Auto && !cpu_quicker.empty()) return {Backend::Cpu, "auto chose the CPU: " + cpu_quicker};
    return {Backend::Cuda, {}};
}

}  // namespace spikeminer
