#include "child_process.hpp"

#include "spikeminer/core/error.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <thread>

// Defined only in sanitizer builds.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace spikeminer::io::detail {

ChildEnd run_in_child(const std::function<void()>& work, std::chrono::seconds limit, const Progress* progress) {
    const pid_t child = fork();
    if (child < 0) return {};
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // A crash here is the caller's to report: no inherited handler (a test framework's,
        // a fuzzer's, a sanitizer's) may take it for its own.
        for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(fault, SIG_DFL);
        if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
        int code = 0;
        try {
            work();
        } catch (...) {
            code = 1;
        }
        _exit(code);  // no destructors, no atexit handlers: the parent's state is not the child's
    }
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int raw = 0;
    for (;;) {
        const pid_t done = waitpid(child, &raw, WNOHANG);
        if (done == child) break;
        if (done < 0) return {ChildEnd::Kind::Finished, 0};  // reaped elsewhere (a SIGCHLD handler): nothing to tell
        const bool cancelled = progress != nullptr && [&] {
            try {
                progress->check_cancelled();
                return false;
            } catch (const Cancelled&) {
                return true;
            }
        }();
        const bool late = limit.count() > 0 && std::chrono::steady_clock::now() > deadline;
        if (cancelled || late) {
            kill(child, SIGKILL);
            waitpid(child, &raw, 0);
            if (cancelled) throw Cancelled();
            return {ChildEnd::Kind::TimedOut, 0};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (WIFSIGNALED(raw)) return {ChildEnd::Kind::Crashed, WTERMSIG(raw)};
    if (WIFEXITED(raw) && WEXITSTATUS(raw) != 0) return {ChildEnd::Kind::Failed, WEXITSTATUS(raw)};
    return {ChildEnd::Kind::Finished, 0};
}

}  // namespace spikeminer::io::detail
