#include "child_process.hpp"

#include "spikeminer/core/error.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

// Defined only in sanitizer builds.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace spikeminer::io::detail {
namespace {

bool cancelled(const Progress* progress) {
    if (progress == nullptr) return false;
    try {
        progress->check_cancelled();
        return false;
    } catch (const Cancelled&) {
        return true;
    }
}

// Waits until `child` has ended (true) or 50 ms have passed (false). Through a pidfd the
// wake-up is immediate; kernels without one (before Linux 5.3) are polled every 2 ms.
bool wait_a_while(int pidfd, pid_t child, int& raw) {
    if (pidfd >= 0) {
        pollfd ready{pidfd, POLLIN, 0};
        if (poll(&ready, 1, 50) == 0) return false;
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return waitpid(child, &raw, WNOHANG) != 0;
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// GCC 12's AddressSanitizer does not hold its own locks across fork(): a child forked while
// another thread allocates (the GUI's event loop beside its reading thread) can wait on one
// forever at its first allocation, or at its first thread (the reader writes its columns on
// several). In sanitizer builds the child allocates and starts a thread at once and says
// so through a pipe; one that does not within 2 s is ended and started again.
namespace {
pid_t fork_that_allocates() {
    for (int attempt = 0; attempt < 8; ++attempt) {
        int ready[2];
        if (pipe(ready) != 0) return fork();
        const pid_t child = fork();
        if (child == 0) {
            close(ready[0]);
            std::vector<char> large(std::size_t{1} << 20), small(64);
            std::thread([&small] { small[1] = 1; }).join();
            const char byte = static_cast<char>(large[0] + small[0] + small[1]);
            if (::write(ready[1], &byte, 1) != 1) _exit(1);
            close(ready[1]);
            return 0;
        }
        close(ready[1]);
        pollfd answer{ready[0], POLLIN, 0};
        const bool answered = child > 0 && poll(&answer, 1, 2000) == 1;
        close(ready[0]);
        if (child < 0 || answered) return child;
        kill(child, SIGKILL);
        waitpid(child, nullptr, 0);
    }
    return -1;
}
}  // namespace
#endif

ChildEnd run_in_child(const std::function<void()>& work, const Progress* progress) {
#if defined(__SANITIZE_ADDRESS__)
    const pid_t child = fork_that_allocates();
#else
    const pid_t child = fork();
#endif
    if (child < 0) return {};
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // A crash here is the caller's to report: no inherited handler (a test framework's,
        // a fuzzer's, a sanitizer's) may take it for its own.
        for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) std::signal(fault, SIG_DFL);
        if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
        int code = 0;
        try {
            work();
        } catch (...) {
            code = 1;
        }
        _exit(code);  // no destructors, no atexit handlers: the parent's state is not the child's
    }
    // Through the system call: glibc 2.36's <sys/pidfd.h> lacks extern "C".
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
    struct Closer {
        int fd;
        ~Closer() {
            if (fd >= 0) close(fd);
        }
    } closer{pidfd};
    int raw = 0;
    for (;;) {
        if (wait_a_while(pidfd, child, raw)) break;
        if (cancelled(progress)) {
            kill(child, SIGKILL);
            waitpid(child, &raw, 0);
            throw Cancelled();
        }
    }
    if (WIFSIGNALED(raw)) return {ChildEnd::Kind::Crashed, WTERMSIG(raw)};
    if (WIFEXITED(raw) && WEXITSTATUS(raw) != 0) return {ChildEnd::Kind::Failed, WEXITSTATUS(raw)};
    return {ChildEnd::Kind::Finished, 0};
}

}  // namespace spikeminer::io::detail
