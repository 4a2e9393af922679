#pragma once
// The surrogate edge test (EdgeTest::surrogates): a window's edges counted again in
// surrogates of the spikes near the window; on the CPU window by window, on the GPU many
// windows at once.

#include "spikeminer/mining/cofiring.hpp"
#include "spikeminer/mining/significance.hpp"
#include "spikeminer/mining/surrogates.hpp"

#include "pair_test_count.hpp"

#include <memory>
#include <span>

namespace spikeminer::mining::detail {

/// The lags of test `interval` (kSynchrony or an interval's index) of `lags`.
PairTestLags pair_test_lags(const CofiringLags& lags, int interval);

/// The longest lag a test of `lags` looks back: what a window's count needs before it.
Tick longest_lag(const CofiringLags& lags);

/// The options of the edge test's surrogates, with the edge test's q and correction.
SignificanceOptions edge_surrogate_options(const EdgeTest& test);

/// Keeps the edges of `window` whose surrogate tests (`tested`, one per edge) passed, with
/// the surrogates' p-values and mean count.
void keep_confirmed(CofiringWindow& window, std::span<const SurrogateSignificance> tested);

/// Keeps the edges of `window` that pass the surrogate edge test of `test` (see
/// EdgeTest::surrogates), with the surrogates' p-values; on `threads` threads (0: all).
/// `progress`'s Cancel stops the work.
void confirm_with_surrogates(const SurrogateTrains& surrogates, CofiringWindow& window, const CofiringLags& lags,
                             const EdgeTest& test, unsigned threads, Progress* progress);

/// The surrogate edge test of many windows at once on the current CUDA device, edge for
/// edge as confirm_with_surrogates tests them: each surrogate is made there only near the
/// windows' edges, and all their open tests are counted in it together. Dither and
/// joint-ISI surrogates (shift: the CPU). Only in builds with CUDA (src/cuda); throws
/// GpuOutOfMemory when the device is full.
class GpuEdgeSurrogates {
public:
    GpuEdgeSurrogates(const SpikeTrains& trains, const SurrogateOptions& options);
    ~GpuEdgeSurrogates();
    GpuEdgeSurrogates(const GpuEdgeSurrogates&) = delete;
    GpuEdgeSurrogates& operator=(const GpuEdgeSurrogates&) = delete;

    /// Keeps the edges of `windows` that pass the test of `test`; `progress`'s Cancel stops
    /// the work between surrogates.
    void confirm(std::span<CofiringWindow> windows, const CofiringLags& lags, const EdgeTest& test, Progress* progress);

private:
    struct Device;
    const SpikeTrains& trains_;
    std::unique_ptr<Device> device_;
};

}  // namespace spikeminer::mining::detail
