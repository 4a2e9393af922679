// bench_pipeline's second and third tables: what `spikeminer run` reports on each recording
// at the defaults, and how well its episodes recover simulations' chains on seeds no test
// uses.
#pragma once

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>
#include <vector>

namespace spikeminer::bench {

/// One recording's run, as the tables show it.
struct RecordingRow {
    std::string name;
    std::string backend;
    std::size_t neurons = 0;
    std::size_t spikes = 0;
    double duration_s = 0;
    double read_s = 0;
    double total_s = 0;  ///< reading and the pipeline, wall time (stages may overlap)
    double peak_mib = 0;
    pipeline::PipelineResult result;
};

/// | recording | backend | neurons | spikes | s | episodes by length | most edges | assemblies | stages | peak MiB |
void print_recordings(const std::vector<RecordingRow>& rows);

/// Mines simulated scenarios at run's defaults (the test against chance on) on `seeds`
/// seeds each and prints the chains' recall and the precision of episodes of 3+ neurons:
/// paper and assemblies at `seconds`, and independent neurons (scenario none), whose
/// episodes of 2+ neurons are all chance's. `backend`: auto, cpu or gpu.
void print_recovery(double seconds, std::size_t seeds, const std::string& backend);

/// One scenario of the assemblies' recovery: its length, its neurons (0: the scenario's) and
/// the seeds it runs on.
struct AssemblyScenario {
    std::string name;
    double seconds = 0;
    std::size_t neurons = 0;
    std::size_t seeds = 1;
};

/// Runs each scenario through `spikeminer run` at its defaults and through the ICA peer
/// (bench/ica_assemblies.py under `python`), and prints each method's assemblies' recall,
/// precision and span error, the embedded events found, the runs that report any assembly,
/// and its time (spikeminer's: the stages after the episodes, which the peer does not mine).
void print_assembly_recovery(const std::vector<AssemblyScenario>& scenarios, const std::string& python, const std::string& script,
                             const std::string& backend);

}  // namespace spikeminer::bench
