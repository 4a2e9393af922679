#pragma once
// The co-firing windows of a live session, each decided once its last spike can no longer
// arrive: counted from the spikes since a little before it (its longest lag), with the
// bins and time grid of the whole recording, so that a window decided live is the window
// `spikeminer run` finds in the finished recording (given the same time scales).

#include "live_recording.hpp"

#include "spikeminer/app/pipeline/run_config.hpp"
#include "spikeminer/mining/cofiring.hpp"

#include <mutex>
#include <optional>
#include <vector>

namespace spikeminer::live {

/// A window decided live, in provisional unit ids.
struct DecidedWindow {
    mining::CofiringWindow window;
    std::vector<std::vector<NeuronId>> cliques;  ///< its graph's maximal cliques of at least min_size, sorted
    Tick grid = 1;                               ///< the time grid it was counted on
};

/// Windows to count together: their spikes (a copy), with what counting them needs.
struct WindowBatch {
    std::vector<std::size_t> chosen;  ///< the windows to decide, ascending
    std::size_t first = 0;            ///< the window the part's bins start with
    std::size_t next = 0;             ///< every window before it is chosen here or before, or left to the end
    SpikeTrains part;
    mining::CofiringOptions options;
    std::vector<std::string> labels;
};

/// Windows are taken in order on one thread and counted on another (one batch at a time).
class LiveWindows {
public:
    /// `options`: the co-firing options of the session's time scales (window and step set).
    LiveWindows(mining::CofiringOptions options, const pipeline::RunConfig& config);

    /// The index of the next window to decide.
    [[nodiscard]] std::size_t next() const { return next_; }
    /// Windows that end by `until` and are not decided yet.
    [[nodiscard]] std::size_t waiting(Tick origin, Tick until) const;
    /// The windows that end by `until`, from next() on, every `stride`-th (the others are
    /// left to the session's end); none when none is waiting.
    std::optional<WindowBatch> take(const LiveRecording& recording, Tick until, std::size_t stride, const std::vector<std::string>& labels,
                                    const TimeBase& time_base);
    /// Counts a batch (on any thread), keeps its windows and returns them.
    std::vector<DecidedWindow> count(const WindowBatch& batch);
    /// Window w (a copy), if it was decided.
    [[nodiscard]] std::optional<DecidedWindow> at(std::size_t w) const;
    /// Window w's span from the recording's start.
    [[nodiscard]] TimeSpan span(std::size_t w, Tick origin) const;
    /// Steps a window holds.
    [[nodiscard]] std::size_t steps_per_window() const { return static_cast<std::size_t>(options_.window / options_.step); }

private:
    mining::CofiringOptions options_;
    std::size_t min_size_;
    Tick reach_ = 0;  // the longest lag counted: the spikes before a window it needs
    std::size_t next_ = 0;
    mutable std::mutex lock_;  // decided_: written by count(), read by at()
    std::vector<std::optional<DecidedWindow>> decided_;
};

/// `window` with its neurons renamed by `remap` and its edges in the order the counter
/// gives them ((a, b, interval); synchrony's a the lower).
mining::CofiringWindow renamed(const mining::CofiringWindow& window, const std::vector<NeuronId>& remap);

}  // namespace spikeminer::live
