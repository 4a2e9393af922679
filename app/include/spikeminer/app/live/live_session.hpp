#pragma once
// A live session (`spikeminer live`): the pipeline run while the recording is made.
//
// Spikes are put in order once none can still precede them (`lateness` after the latest
// one seen). The time scales (lags, windows) are chosen, as `spikeminer run` chooses
// them, from the first `warmup_s` of the recording, and then kept. Each co-firing window
// is decided as soon as its spikes are in, exactly as `run` decides it in the finished
// recording; its maximal cliques follow at once. Every `refresh_s` of recording, the
// assemblies are found again over all of it so far, in a thread beside the windows: the
// whole pipeline (episodes, members from all the evidence, tracking, activity) on what is
// decided, reusing the decided windows. The assemblies found are watched spike by spike,
// and an activation is told the moment more than half of one's members have fired
// together. When the source ends (or on stop), the windows left are decided and the whole
// pipeline runs once more over everything: the folder's final/ is then what
// `spikeminer run --config DIR/settings.json` writes for the same spikes.

#include "spikeminer/app/live/live_source.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"
#include "spikeminer/core/progress.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spikeminer::live {

/// What a view that follows the session (the desktop app) is handed now and then.
struct LiveView {
    std::shared_ptr<const SpikeTrains> recent;              ///< the spikes in order over the latest shown_s, every unit so far
    std::shared_ptr<const pipeline::Input> searched;        ///< after a search for the assemblies: the stretch it covered
    std::shared_ptr<const pipeline::PipelineResult> found;  ///< ... and what it found (its windows, assemblies, episodes)
    std::size_t spikes = 0;                                 ///< taken so far
    std::size_t windows = 0;                                ///< decided so far
};

struct LiveOptions {
    pipeline::RunConfig config;    ///< the settings `spikeminer run` takes (auto time scales from the warm-up)
    std::string output;            ///< the session's folder: new or empty
    std::string publish;           ///< a ZeroMQ endpoint to bind a PUB socket to ("tcp://*:5557"), or none
    double lateness_s = 0.1;       ///< how much later than the latest spike seen an earlier one may still come
    double warmup_s = 10;          ///< recording seen before the time scales are chosen
    double refresh_s = 60;         ///< recording between two searches for the assemblies
    double until_idle_s = 0;       ///< end after this long without a spike (0: wait for ever)
    /// Called from the session's thread after each step that decided windows and after each
    /// search for the assemblies; none: no view.
    std::function<void(const LiveView&)> watch;
    double shown_s = 60;           ///< the latest stretch of recording a LiveView's spikes cover
};

/// How the session went.
struct LiveReport {
    std::size_t spikes = 0;
    std::size_t units = 0;
    std::size_t late = 0;                  ///< spikes left out: they came after their time was settled
    std::size_t windows = 0;               ///< decided live
    std::size_t skipped = 0;               ///< left to the end while behind
    std::size_t refreshes = 0;
    std::vector<double> window_wait_ms;    ///< per decided window: from the arrival that let it be decided to its row written
    std::vector<double> activation_wait_ms;  ///< per activation: from the arrival of the spike completing it to its message sent
    std::string ended;                     ///< why it ended
    std::size_t assemblies = 0;            ///< in the final results
    std::vector<std::string> notes;
};

/// Checks what can be checked before any spike comes (UsageError): the settings, a
/// surrogate edge test (its surrogates are made from the whole recording), the times.
void validate(const LiveOptions& options);

/// Runs the session on `source` until it ends, `until_idle_s` passes without a spike, or
/// `stop` is requested (Ctrl-C); then writes the final results into output/final.
/// `progress` shows the final pass, and its Cancel stops it (Cancelled; the files written
/// live stay). `say` gets a line for the user now and then. A source that sends a
/// malformed spike ends the session the same way, the final results written, and then
/// throws its Error. `live_ended` (optional) is called when the spikes stop being taken,
/// before the final pass (from then on `stop` is not looked at).
LiveReport run_live(LiveSource& source, const LiveOptions& options, const CancelToken& stop, Progress* progress,
                    const std::function<void(const std::string&)>& say, const std::function<void()>& live_ended = {});

}  // namespace spikeminer::live
