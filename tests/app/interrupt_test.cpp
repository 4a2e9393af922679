// Ctrl-C at any moment of a command: it ends with exit 130, says so, and leaves no output
// and no partial file. The signal is sent as soon as the program catches it (its SigCgt in
// /proc), while it is still reading its input: the commands used to be killed by it there.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

using namespace spikeminer;
namespace fs = std::filesystem;

namespace {

// Whether process `pid` has `file` open: it has started to read it.
bool reads(pid_t pid, const fs::path& file) {
    std::error_code error;
    for (fs::directory_iterator fd("/proc/" + std::to_string(pid) + "/fd", error), end; !error && fd != end; fd.increment(error)) {
        std::error_code unreadable;
        if (fs::read_symlink(fd->path(), unreadable) == file) return true;
    }
    return false;
}

// Runs `spikeminer ARGS`, sends Ctrl-C once it has opened `input`, and returns how it
// ended (the exit code, or -signal when a signal ended it). A guard kills it after 10
// minutes.
int interrupted(const std::vector<std::string>& args, const fs::path& input, const std::string& err) {
    // Everything the child needs is made before the fork: between fork and exec it calls
    // only what is safe in a copy of a process with threads.
    std::string program = SPIKEMINER_CLI;
    std::vector<std::string> copies = args;
    std::vector<char*> argv{program.data()};
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null_fd = open("/dev/null", O_WRONLY);
    REQUIRE(err_fd >= 0);
    REQUIRE(null_fd >= 0);
    const pid_t pid = fork();
    if (pid == 0) {
        if (dup2(err_fd, STDERR_FILENO) < 0 || dup2(null_fd, STDOUT_FILENO) < 0) _exit(99);
        execv(program.c_str(), argv.data());
        _exit(98);
    }
    close(err_fd);
    close(null_fd);
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    bool sent = false;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (!sent && reads(pid, input)) sent = kill(pid, SIGINT) == 0;
        if (std::chrono::steady_clock::now() - start > std::chrono::minutes(10)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -SIGKILL;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

}  // namespace

TEST_CASE("cli: Ctrl-C while a command reads its input ends it with exit 130 and nothing written", "[cli][interrupt]") {
    const test::TempDir dir;
    const std::string edges = dir.file("edges.txt");
    {
        std::ofstream file(edges);
        std::mt19937_64 random(7);
        for (int i = 0; i < 500'000; ++i) file << random() % 100'000 << ' ' << random() % 100'000 << '\n';
    }
    const std::string graph = dir.file("graph.h5");
    const std::string cliques = dir.file("cliques.txt");
    const std::string err = dir.file("err.txt");
    CHECK(interrupted({"cliques", edges, "--graph-out", graph, "-o", cliques}, fs::canonical(edges), err) == 130);
    CHECK(test::has(test::read_file(err), "cancelled"));
    CHECK(!fs::exists(graph));
    CHECK(!fs::exists(cliques));
    CHECK(test::partial_files(dir.path()).empty());
}
