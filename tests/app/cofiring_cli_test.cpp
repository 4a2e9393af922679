// `spikeminer cofiring` end to end on a text recording where neuron 3 fires 3 ms after
// neuron 1: the edge 1 then 3 at (2,5] ms comes out in every window and in the CSV; bad
// windows, lags and outputs are usage errors (exit 2) and leave no file; a window longer
// than the recording is one window, with a note.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

using namespace spikeminer;
using test::CliResult;
using test::has;
using test::run_cli;

namespace {

// Text spikes ("neuron<TAB>seconds"): 6 neurons at 5 Hz for 60 s; 3 follows each of 1's
// spikes 3 ms later.
void write_recording(const std::string& path) {
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> second(0.0, 60.0);
    std::ofstream out(path);
    for (int n = 0; n < 6; ++n) {
        for (int s = 0; s < 300; ++s) {
            const double t = second(random);
            out << n << '\t' << t << '\n';
            if (n == 1) out << 3 << '\t' << t + 0.003 << '\n';
        }
    }
}

}  // namespace

TEST_CASE("cofiring cli: a pair firing in sequence is an edge in every window and in the table", "[cli][cofiring]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("pair.txt");
    write_recording(spikes);
    const std::string out = dir.file("edges.csv");
    const CliResult result = run_cli({"cofiring", spikes, "--window", "20", "--step", "10", "-o", out, "--backend", "cpu"});
    INFO("stdout: " << result.out << "\nstderr: " << result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "5 windows, cpu"));
    CHECK(has(result.out, "1 then 3"));
    std::ifstream file(out);
    std::string line;
    std::getline(file, line);
    CHECK(line == "window,start_s,end_s,a,b,lags,count,expected,p,p_adjusted");
    std::set<std::string> windows_with_the_pair;
    while (std::getline(file, line)) {
        if (line.find(",1,3,2-5,") != std::string::npos) windows_with_the_pair.insert(line.substr(0, line.find(',')));
    }
    CHECK(windows_with_the_pair == std::set<std::string>{"0", "1", "2", "3", "4"});
}

TEST_CASE("cofiring cli: impossible windows, lags and outputs exit 2 and write nothing", "[cli][cofiring][bad-input]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("pair.txt");
    write_recording(spikes);
    const std::string out = dir.file("never.csv");
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--window", "10", "--step", "3"}, {"--window", "3", "--step", "10"}, {"--window", "-10", "--step", "1"},
          {"--window", "0", "--step", "0"}, {"--window", "10"}, {"--step", "1"}, {"--window", "ten", "--step", "1"},
          {"--intervals", "0-5,3-8"}, {"--intervals", "5-5"}, {"--baseline", "4-40"}, {"--sync", "off", "--intervals", ""},
          {"--q", "0"}, {"--q", "-1"}, {"--correction", "holm"}}) {
        std::vector<std::string> args = {"cofiring", spikes, "-o", out};
        args.insert(args.end(), bad.begin(), bad.end());
        const CliResult result = run_cli(args);
        INFO(bad.front() << " " << bad.back() << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(!result.err.empty());
        CHECK(!std::filesystem::exists(out));
    }
    CHECK(run_cli({"cofiring", spikes, "-o", dir.file("edges.json")}).status == 2);
    CHECK(test::partial_files(dir.path()).empty());
}

TEST_CASE("cofiring cli: a window longer than the recording is one window, with a note", "[cli][cofiring]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("pair.txt");
    write_recording(spikes);
    const CliResult result = run_cli({"cofiring", spikes, "--window", "100", "--step", "10", "--backend", "cpu"});
    INFO(result.err);
    REQUIRE(result.status == 0);
    CHECK(has(result.out, "1 windows"));
    CHECK(has(result.err, "shorter than one window"));
}
