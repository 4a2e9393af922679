#include "terminal_progress.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>

namespace spikeminer::cli {
namespace {

CancelToken* g_cancel = nullptr;

extern "C" void on_interrupt(int) {
    if (g_cancel != nullptr) g_cancel->request();
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

TerminalProgress::TerminalProgress()
    : progress_(isatty(STDERR_FILENO) != 0 ? Progress::Callback(draw) : Progress::Callback{}, &cancel_) {
    g_cancel = &cancel_;
    std::signal(SIGINT, on_interrupt);
}

TerminalProgress::~TerminalProgress() {
    std::signal(SIGINT, SIG_DFL);
    g_cancel = nullptr;
}

}  // namespace spikeminer::cli
