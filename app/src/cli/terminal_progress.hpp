#pragma once

#include "spikeminer/core/progress.hpp"

namespace spikeminer::cli {

/// A progress bar on stderr (only when stderr is a terminal) whose Ctrl-C cancels the
/// work cleanly instead of killing the process mid-write.
class TerminalProgress {
public:
    TerminalProgress();
    ~TerminalProgress();
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    /// The Progress to hand to long-running work.
    Progress& progress() { return progress_; }

private:
    CancelToken cancel_;
    Progress progress_;
};

}  // namespace spikeminer::cli
