// spikeminer: the command-line entry point. Exit codes: 0 ok, 1 runtime error, 2 usage
// error, 130 cancelled.
#include "commands.hpp"
#include "terminal_progress.hpp"

#include "spikeminer/core/error.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    spikeminer::cli::catch_interrupts();
    CLI::App app{"spikeminer: repeating firing sequences and neuron assemblies in spike trains"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "spikeminer " SPIKEMINER_VERSION);
    spikeminer::cli::add_demo_command(app);
    spikeminer::cli::add_run_command(app);
    spikeminer::cli::add_info_command(app);
    spikeminer::cli::add_convert_command(app);
    spikeminer::cli::add_simulate_command(app);
    spikeminer::cli::add_mine_command(app);
    spikeminer::cli::add_count_command(app);
    spikeminer::cli::add_cofiring_command(app);
    spikeminer::cli::add_assemblies_command(app);
    spikeminer::cli::add_cliques_command(app);
    spikeminer::cli::add_dyngraph_command(app);
    spikeminer::cli::add_live_command(app);
    spikeminer::cli::check_option_ranges(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    } catch (const spikeminer::UsageError& e) {
        std::fprintf(stderr, "spikeminer: %s\n", e.what());
        return 2;
    } catch (const spikeminer::Error& e) {
        std::fprintf(stderr, "spikeminer: error: %s\n", e.what());
        return 1;
    } catch (const spikeminer::Cancelled&) {
        std::fprintf(stderr, "\nspikeminer: cancelled; %s\n", spikeminer::cli::cancelled_message());
        return 130;
    } catch (const std::bad_alloc&) {
        // Which command on which input, and the machine's memory: the work was too large.
        std::string command = "spikeminer";
        for (int i = 1; i < argc && command.size() < 300; ++i) command += std::string(" ") + argv[i];
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long page_size = sysconf(_SC_PAGE_SIZE);
        std::fprintf(stderr,
                     "spikeminer: error: out of memory running `%s` (this machine has %ld MiB): give a shorter recording or "
                     "fewer neurons, a higher threshold, or a machine with more memory\n",
                     command.c_str(), pages > 0 && page_size > 0 ? pages / 1024 * page_size / 1024 : -1L);
        return 1;
    }
    return 0;
}
