#include "read_arguments.hpp"

namespace spikeminer::cli {

void ReadArguments::add_to(CLI::App& command) {
    command.add_option("--format", format, "input format: csv, text, nwb, spikeminer, waverepo, phy (default: detect)");
    command.add_option("--tick", tick,
                       "tick for times given in seconds, e.g. 1us, 100ns, 1ms, 30000/s (default: the file's own, "
                       "else 1us); times are rounded to the nearest tick");
    command.add_option("--duplicates", duplicates, "two spikes of one neuron at one tick: keep (default) or merge")
        ->check(CLI::IsMember({"keep", "merge"}));
    command.add_option("--units", units, "a Kilosort / Phy folder's units: good (default: those its labels call good) or all")
        ->check(CLI::IsMember({"good", "all"}));
}

io::ReadOptions ReadArguments::options(Progress* progress) const { return io::read_options(format, tick, duplicates, progress, units); }

}  // namespace spikeminer::cli
