#pragma once
// The one CPU/GPU policy every engine follows: choose where to run and say why, then run
// there, falling back to the CPU with a note when the GPU runs out of memory.

#include "spikeminer/core/error.hpp"

#include <string>
#include <utility>

namespace spikeminer {

/// Where an engine runs. Auto takes the GPU when this build has CUDA, a device is present
/// and the engine does not judge the CPU quicker for the input, else the CPU.
enum class Backend { Auto, Cpu, Cuda };

/// "auto", "cpu", "gpu".
std::string backend_name(Backend backend);
/// Parses a backend name (auto|cpu|gpu|cuda); throws UsageError listing the choices.
Backend parse_backend(const std::string& name);

/// Where one run of an engine takes place, and why when that is not plainly what was asked.
struct BackendChoice {
    Backend backend = Backend::Cpu;  ///< Cpu or Cuda
    std::string note;                ///< why auto took the CPU, or why the GPU gave way; empty otherwise
};

/// Chooses where an engine runs. Cpu: the CPU. Cuda: the GPU, or Error saying why none can
/// be used. Auto: the CPU when no GPU can be used (the note gives the reason) or when the
/// engine passes `cpu_quicker`, its reason to keep this input on the CPU ("1,200 edges:
/// the CPU finishes before a GPU starts"); else the GPU.
BackendChoice choose_backend(Backend requested, const std::string& cpu_quicker = {});

/// Runs `on_gpu()` when `choice` says Cuda, else `on_cpu()`. When the GPU runs out of
/// memory (GpuOutOfMemory) it runs `on_cpu()` instead and records the fallback in
/// `choice`: from then on the choice says Cpu, and its note says why.
template <typename OnGpu, typename OnCpu>
auto run_with_fallback(BackendChoice& choice, OnGpu&& on_gpu, OnCpu&& on_cpu) -> decltype(on_cpu()) {
    if (choice.backend == Backend::Cuda) {
        try {
            return std::forward<OnGpu>(on_gpu)();
        } catch (const GpuOutOfMemory& oom) {
            choice.backend = Backend::Cpu;
            choice.note = std::string("the GPU ran out of memory (") + oom.what() + "): ran on the CPU instead";
        }
    }
    return std::forward<OnCpu>(on_cpu)();
}

}  // namespace spikeminer
