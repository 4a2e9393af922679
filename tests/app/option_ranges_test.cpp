// Numeric options keep their ranges in every command: a negative count is refused (CLI11
// would wrap it around to 2^64 - 1), so is a number that is not finite and an absurd
// thread count (OpenMP crashed at a million threads); nothing is written. Options that
// only qualify another are refused without it (they were silently ignored).
#include "catch.hpp"
#include "cli_runner.hpp"

#include <filesystem>

using namespace spikeminer;
namespace fs = std::filesystem;

TEST_CASE("cli: numeric options refuse negative counts, numbers that are not finite and absurd thread counts",
          "[cli][bad-input]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    test::write_file(spikes, "unit,time_s\n0,0.1\n1,0.102\n0,0.5\n1,0.502\n");
    const std::string edges = dir.file("edges.txt");
    test::write_file(edges, "0 1\n1 2\n0 2\n");
    const std::string out = dir.file("out");
    struct Case {
        std::vector<std::string> args;
        std::string words;
    };
    const std::vector<Case> cases{
        {{"mine", spikes, "--min-count", "-1", "-o", out + ".json"}, "--min-count: a count here is 0 or more, not -1"},
        {{"mine", spikes, "--min-count", "2", "--show", "-3", "-o", out + ".json"}, "--show"},
        {{"mine", spikes, "--min-count", "2", "--threads", "1000000", "-o", out + ".json"}, "at most 4096 threads"},
        {{"mine", spikes, "--min-rate", "nan", "-o", out + ".json"}, "--min-rate: a number here must be finite"},
        {{"mine", spikes, "--min-count", "2", "--devices", "0,-1", "-o", out + ".json"}, "a device number is 0 or more, not -1"},
        {{"cliques", edges, "--min-size", "-2", "-o", out + ".txt"}, "--min-size"},
        {{"cliques", edges, "--devices", "-2", "-o", out + ".txt"}, "--devices"},
        {{"cliques", edges, "--limit", "-1", "-o", out + ".txt"}, "--limit"},
        {{"dyngraph", edges, "--batch", "-1", "-o", out + ".csv"}, "--batch"},
        {{"simulate", "--duration", "inf", "-o", out + ".h5"}, "--duration: a number here must be finite"},
        {{"simulate", "--neurons", "-5", "-o", out + ".h5"}, "--neurons"},
        {{"run", "--simulate", "demo", "--threads", "-1", "-o", out}, "--threads"},
        {{"run", "--simulate", "demo", "--min-size", "-3", "-o", out}, "--min-size"},
    };
    for (const Case& c : cases) {
        const test::CliResult result = test::run_cli(c.args);
        INFO(c.args.front() << " " << c.args[c.args.size() - 4] << " " << c.args[c.args.size() - 3] << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(test::has(result.err, c.words));
        for (const char* ending : {"", ".json", ".txt", ".csv", ".h5"}) CHECK(!fs::exists(out + ending));
    }
    // In range, the same options work.
    CHECK(test::run_cli({"mine", spikes, "--min-count", "2", "--threads", "2", "--show", "0"}).status == 0);
    // A list option takes one argument: the recording after it stays the recording.
    CHECK(test::run_cli({"mine", "--devices", "0", spikes, "--min-count", "2", "--show", "0"}).status == 0);
}

TEST_CASE("cli: options that only qualify another are refused without it", "[cli][bad-input]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    test::write_file(spikes, "unit,time_s\n0,0.1\n1,0.102\n0,0.5\n1,0.502\n");
    struct Case {
        std::vector<std::string> args;
        std::string words;
    };
    const std::vector<Case> cases{
        {{"assemblies", spikes, "--figure-seconds", "3"}, "--figure-seconds requires --figure"},
        {{"mine", spikes, "--min-count", "1", "--occurrences"}, "--occurrences requires --output"},
        {{"mine", spikes, "--min-count", "1", "--occurrences", "-o", dir.file("episodes.csv")}, "JSON only"},
        {{"info", spikes, "--self-test"}, "--self-test requires --devices"},
        {{"mine", spikes, "--min-count", "1", "--surrogates", "99"}, "--surrogates requires --significance"},
        {{"mine", spikes, "--min-count", "1", "--significance", "1.5"}, "--significance: give a rate q in (0, 1]"},
        {{"cofiring", spikes, "--surrogates", "99"}, "--surrogates requires --edge-test"},
        {{"cofiring", spikes, "--edge-test", "analytic", "--dither-ms", "5"}, "apply to --edge-test surrogate"},
        {{"cofiring", spikes, "--edge-test", "jitter"}, "--edge-test: choose analytic or surrogate"},
        {{"run", "--simulate", "demo", "-o", dir.file("run"), "--surrogates", "99"}, "apply with significance.q"},
        {{"run", "--simulate", "demo", "-o", dir.file("run"), "--edge-test", "surrogate", "--dither-ms", "0"}, "dither-ms: give a positive"},
        {{"run", "--batch", spikes, "--simulate", "demo", "-o", dir.file("run")}, "--batch: give the recordings in the manifest"},
    };
    for (const Case& c : cases) {
        const test::CliResult result = test::run_cli(c.args);
        INFO(c.args.front() << ": " << result.err);
        CHECK(result.status == 2);
        CHECK(test::has(result.err, c.words));
    }
    CHECK(!std::filesystem::exists(dir.file("episodes.csv")));
    CHECK(!std::filesystem::exists(dir.file("run")));
    CHECK(test::run_cli({"mine", spikes, "--min-count", "1", "--occurrences", "-o", dir.file("episodes.json")}).status == 0);
}
