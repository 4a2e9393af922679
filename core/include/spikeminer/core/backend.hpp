#pragma once

#include <string>

namespace spikeminer {

/// Where an engine runs. Auto takes the GPU when this build has CUDA and a device is
/// present, else the CPU.
enum class Backend { Auto, Cpu, Cuda };

/// "auto", "cpu", "gpu".
std::string backend_name(Backend backend);
/// Parses --backend (auto|cpu|gpu|cuda); throws UsageError listing the choices.
Backend parse_backend(const std::string& name);

/// The backend that will run: Cpu or Cuda. Auto falls back to the CPU (saying why in
/// `reason`); Cuda throws Error when no device can be used.
Backend resolve_backend(Backend requested, std::string* reason = nullptr);

}  // namespace spikeminer
