// Ctrl-C at any moment of a command: it ends with exit 130, says so, and leaves no output
// and no partial file. The signal is sent as soon as the program has opened a given file:
// its input (while it reads it), or its output's temporary file (while it writes it).
#include "catch.hpp"
#include "cli_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <thread>

using namespace spikeminer;
namespace fs = std::filesystem;

namespace {

using Opened = std::function<bool(const fs::path&)>;

// Whether process `pid` has a file open that `wanted` accepts.
bool has_open(pid_t pid, const Opened& wanted) {
    std::error_code error;
    for (fs::directory_iterator fd("/proc/" + std::to_string(pid) + "/fd", error), end; !error && fd != end; fd.increment(error)) {
        std::error_code unreadable;
        if (wanted(fs::read_symlink(fd->path(), unreadable))) return true;
    }
    return false;
}

// Runs `spikeminer ARGS`, sends Ctrl-C once it has opened a file `opened` accepts, and
// returns how it ended (the exit code, or -signal when a signal ended it), and in `after`
// the time it took to end after the signal. A guard kills it after 10 minutes.
int interrupted(const std::vector<std::string>& args, const Opened& opened, const std::string& err,
                std::chrono::duration<double>* after = nullptr) {
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
    auto signalled = start;
    int status = 0;
    bool sent = false;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (!sent && has_open(pid, opened)) {
            sent = kill(pid, SIGINT) == 0;
            signalled = std::chrono::steady_clock::now();
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::minutes(10)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -SIGKILL;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (after != nullptr) *after = std::chrono::steady_clock::now() - signalled;
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
    const fs::path input = fs::canonical(edges);
    CHECK(interrupted({"cliques", edges, "--graph-out", graph, "-o", cliques}, [&](const fs::path& p) { return p == input; }, err) == 130);
    CHECK(test::has(test::read_file(err), "cancelled"));
    CHECK(!fs::exists(graph));
    CHECK(!fs::exists(cliques));
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cli: Ctrl-C while a command writes its output ends it with exit 130 and nothing written", "[cli][interrupt]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    {
        std::ofstream file(spikes);
        file << "unit,time_s\n";
        for (int i = 0; i < 3'000'000; ++i) file << i % 97 << ',' << i << ".000125\n";
    }
    const std::string err = dir.file("err.txt");
    // Written gzip-compressed, a block at a time: the signal comes within the first one.
    const std::string out = dir.file("copy.csv.gz");
    const auto writing = [&](const fs::path& p) { return p.filename().string().starts_with(".copy.csv.gz.partial-"); };
    CHECK(interrupted({"convert", spikes, out}, writing, err) == 130);
    CHECK(test::has(test::read_file(err), "cancelled"));
    CHECK(!fs::exists(out));
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cli: Ctrl-C while mining levels explode ends the command within a second", "[cli][interrupt]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("paper.h5");
    REQUIRE(test::run_cli({"simulate", "--scenario", "paper", "--duration", "30", "--seed", "4", "-o", spikes}).status == 0);
    const std::string err = dir.file("err.txt");
    const std::string out = dir.file("episodes.csv");
    // Without the test against chance and with a floor of 1, every pair is frequent and
    // the third level's million candidates take seconds to make, count and hand back; the
    // signal comes three seconds in, while the levels are mined.
    const auto started = std::chrono::steady_clock::now();
    const auto after_reading = [&](const fs::path&) { return std::chrono::steady_clock::now() - started > std::chrono::seconds(3); };
    std::chrono::duration<double> after{};
    CHECK(interrupted({"mine", spikes, "--q", "0", "--min-count", "1", "--max-level", "6", "--backend", "cpu", "-o", out}, after_reading, err,
                      &after) == 130);
    CHECK(test::has(test::read_file(err), "cancelled"));
    CHECK(after.count() < 1.0);
    CHECK(!fs::exists(out));
    CHECK(test::partial_files(dir.path()).empty());
}
