#pragma once

#include "spikeminer/core/progress.hpp"

#include <functional>

namespace spikeminer::io::detail {

/// How work in a child process ended.
struct ChildEnd {
    enum class Kind { Finished, Failed, Crashed, NotStarted } kind = Kind::NotStarted;
    int code = 0;  ///< the exit code (Failed) or the signal (Crashed)
};

/// Runs `work` in a forked child process, which exits 0 when it returns and 1 when it
/// throws, and waits for it, checking Cancel on `progress` meanwhile (the child is killed
/// and Cancelled thrown). The child dies with this process, and a crash in it ends it by
/// its signal: the handlers it inherited (a test framework's, a fuzzer's, a sanitizer's
/// death callback, SIGALRM's) are dropped. Where no child can be started, NotStarted.
ChildEnd run_in_child(const std::function<void()>& work, const Progress* progress);

}  // namespace spikeminer::io::detail
