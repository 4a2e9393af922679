#include "terminal_progress.hpp"

#include <unistd.h>

#include "spikeminer/app/io/atomic_output.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace spikeminer::cli {
namespace {

// Set from the signal handler: lock-free atomic flags.
CancelToken g_interrupted;
std::atomic<CancelToken*> g_ending{nullptr};  // asked by the first Ctrl-C, when set
std::atomic<const char*> g_cancelled{"no output was written"};  // text that outlives the program's work

// How often the prompt exit looks, and how long the work has to stop by itself first.
constexpr std::chrono::milliseconds kWatch{20};
constexpr std::chrono::milliseconds kGrace{500};

extern "C" void on_interrupt(int) {
    if (CancelToken* ending = g_ending.load(); ending != nullptr && !ending->requested()) {
        ending->request();
        return;
    }
    if (g_interrupted.requested()) {  // the second Ctrl-C: as if none were caught
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
        return;
    }
    g_interrupted.request();
}

void draw(const std::string& task, std::uint64_t done, std::uint64_t total) {
    constexpr int width = 30;
    if (total == 0) {
        std::fprintf(stderr, "\r\033[K%s ...", task.c_str());
    } else {
        const double fraction = static_cast<double>(done) / static_cast<double>(total);
        const int filled = static_cast<int>(fraction * width);
        std::fprintf(stderr, "\r\033[K[%s%s] %3d%% %s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(),
                     static_cast<int>(fraction * 100), task.c_str());
        if (done >= total) std::fputc('\n', stderr);
    }
    std::fflush(stderr);
}

}  // namespace

void catch_interrupts() {
    std::signal(SIGINT, on_interrupt);
    // Stopping is quick at every check for Cancel, but handing back what a large stage
    // holds (millions of episodes) can take seconds. Once no file is being written under a
    // temporary name (those are removed by their owners), the program ends here instead.
    std::thread([] {
        while (!g_interrupted.requested()) std::this_thread::sleep_for(kWatch);
        std::this_thread::sleep_for(kGrace);
        while (io::writes_in_progress() != 0) std::this_thread::sleep_for(kWatch);
        std::fprintf(stderr, "\nspikeminer: cancelled; %s\n", g_cancelled.load());
        std::_Exit(130);
    }).detach();
}

const CancelToken* interrupt_token() { return &g_interrupted; }

void end_on_first_interrupt(CancelToken* ending, const char* cancelled) {
    g_cancelled.store(cancelled);
    g_ending.store(ending);
}

void stop_ending_on_interrupt() { g_ending.store(nullptr); }

const char* cancelled_message() { return g_cancelled.load(); }

TerminalProgress::TerminalProgress()
    : progress_(isatty(STDERR_FILENO) != 0 ? Progress::Callback(draw) : Progress::Callback{}, &g_interrupted) {}

}  // namespace spikeminer::cli
