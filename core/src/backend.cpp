#include "spikeminer/core/backend.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

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

Backend resolve_backend(Backend requested, std::string* reason) {
    if (requested == Backend::Cpu) return Backend::Cpu;
    const DeviceReport report = query_devices();
    if (!report.devices.empty()) return Backend::Cuda;
    if (requested == Backend::Cuda) throw Error("--backend gpu: " + report.status);
    if (reason != nullptr) *reason = report.status;
    return Backend::Cpu;
}

}  // namespace spikeminer
