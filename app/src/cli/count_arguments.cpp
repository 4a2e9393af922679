#include "count_arguments.hpp"

namespace spikeminer::cli {

void CountArguments::add_to(CLI::App& command) {
    command.add_option("--backend", backend, "auto (GPU when there is one), cpu or gpu");
    command.add_option("--counter", counter,
                       "auto (prefix), fsm (CPU, one thread), twostep (CPU, all threads), csw (GPU CountScanWrite), "
                       "atomic (GPU AtomicCompact), gpufsm (GPU, one thread per episode), prefix (CPU or GPU: extends each "
                       "episode's prefix)");
    command.add_option("--threads", threads, "CPU threads (default: all)");
    command.add_option("--gpu-memory", gpu_memory_mib, "MiB of GPU memory the search may use (default: half the free)");
    command.add_option("--devices", devices, "GPU devices to share the prefix counter's work over, e.g. 0,1")->delimiter(',')->allow_extra_args(false);
}

mining::CountOptions CountArguments::options(Progress* progress) const {
    mining::CountOptions options;
    options.backend = parse_backend(backend);
    options.counter = mining::parse_counter(counter);
    options.threads = threads;
    options.gpu_memory_budget = gpu_memory_mib << 20;
    options.devices = devices;
    options.progress = progress;
    return options;
}

}  // namespace spikeminer::cli
