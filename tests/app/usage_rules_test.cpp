// The rules for what a person gives the program, one row per class of mistake: a usage
// error exits 2 naming the option or value, a file error exits 1 naming the file and its
// line, a header with two columns that could each be the unit (or the time) is refused
// naming both, numbers beyond what a type holds are refused rather than cut or turned to
// infinity, and a message never echoes a number's hundreds of digits.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

using namespace spikeminer;

namespace {

struct Case {
    std::string name;
    std::vector<std::string> args;     // "DIR/" prefixes a file of the test's folder
    int status;
    std::vector<std::string> words;    // in stderr
};

}  // namespace

TEST_CASE("cli: usage errors exit 2 and file errors 1, each naming what is wrong", "[cli][bad-input][usage]") {
    const test::TempDir dir;
    test::write_file(dir.file("two_times.csv"), "time_s,unit,time_s\n0.1,1,0.2\n0.3,2,0.4\n");
    test::write_file(dir.file("two_units.csv"), "time_s,unit,unit\n0.1,1,2\n0.3,2,3\n");
    test::write_file(dir.file("unit_neuron.csv"), "unit,neuron,time_s\n1,1,0.2\n2,2,0.4\n");
    test::write_file(dir.file("unit_channel.csv"), "unit,channel,time_s\n1,5,0.2\n2,6,0.4\n");
    std::string wide;
    for (int c = 0; c < 70; ++c) wide += "c" + std::to_string(c) + ",";
    wide += "unit,time_s\n";
    for (int row = 0; row < 4; ++row) {
        for (int c = 0; c < 70; ++c) wide += "0,";
        wide += std::to_string(row % 2) + ",0." + std::to_string(row + 1) + "\n";
    }
    test::write_file(dir.file("wide.csv"), wide);
    test::write_file(dir.file("spikes.csv"), "unit,time_s\n1,0.1\n2,0.2\n1,0.5\n2,0.52\n");
    test::write_file(dir.file("huge_weight.txt"), "0 1 1e39\n1 2 1\n");
    test::write_file(dir.file("edges.txt"), "0 1\n1 2\n");
    const std::vector<Case> cases{
        {"two time columns", {"info", "DIR/two_times.csv"}, 1, {"two_times.csv line 1", "column 1 'time_s'", "column 3 'time_s'"}},
        {"two unit columns", {"info", "DIR/two_units.csv"}, 1, {"two_units.csv line 1", "column 2 'unit'", "column 3 'unit'"}},
        {"unit and neuron columns", {"info", "DIR/unit_neuron.csv"}, 1, {"column 1 'unit'", "column 2 'neuron'"}},
        {"a channel beside the unit", {"info", "DIR/unit_channel.csv"}, 0, {}},
        {"the unit column after 70 others", {"info", "DIR/wide.csv"}, 0, {}},
        {"a count of 0", {"mine", "DIR/spikes.csv", "--min-count", "0"}, 2, {"min count", "'0'"}},
        {"an interval twice", {"mine", "DIR/spikes.csv", "--intervals", "0-40,0-40"}, 2, {"twice"}},
        {"an interval with a minus sign", {"mine", "DIR/spikes.csv", "--intervals", "0-5,-1-3"}, 2, {"'-1-3'"}},
        {"lanes not a power of two", {"cliques", "DIR/edges.txt", "--lanes", "7"}, 2, {"--lanes", "7"}},
        {"more vertices than 32 bits hold", {"dyngraph", "DIR/edges.txt", "--vertices", "4294967297"}, 2, {"--vertices", "4294967297", "4294967294"}},
        {"a weight beyond a float", {"dyngraph", "DIR/huge_weight.txt", "--columns", "src,dst,weight"}, 1,
         {"huge_weight.txt line 1", "'1e39'", "32-bit float"}},
        {"a duration of 1e300 s", {"simulate", "--duration", "1e300", "-o", "DIR/sim.h5"}, 2, {"duration", "1e+300"}},
        {"a window of 1e300 s", {"run", "DIR/spikes.csv", "-o", "DIR/out", "--window", "1e300"}, 2, {"window", "1e+300"}},
        {"an option of another command", {"info", "DIR/spikes.csv", "--window", "3"}, 2, {"--window"}},
        {"an argument of no option", {"info", "DIR/spikes.csv", "extra"}, 2, {"extra"}},
        {"the output is the input", {"convert", "DIR/spikes.csv", "DIR/spikes.csv"}, 2, {"spikes.csv", "input"}},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args;
        for (const std::string& arg : c.args) args.push_back(arg.starts_with("DIR/") ? dir.file(arg.substr(4)) : arg);
        const test::CliResult result = test::run_cli(args);
        INFO(c.name << ": " << result.err);
        CHECK(result.status == c.status);
        for (const std::string& word : c.words) CHECK(test::has(result.err, word));
        CHECK_FALSE(std::regex_search(result.err, std::regex("[0-9]{40}")));  // no number echoed in full
    }
    CHECK_FALSE(std::filesystem::exists(dir.file("sim.h5")));
}

TEST_CASE("cli: a raster figure longer than the recording shows all of it; the results read back, and are no recording",
          "[cli][usage]") {
    const test::TempDir dir;
    test::write_file(dir.file("spikes.csv"), "unit,time_s\n1,0.1\n2,0.2\n1,0.5\n2,0.52\n");
    const test::CliResult result = test::run_cli({"run", dir.file("spikes.csv"), "-o", dir.file("out"), "--figure-seconds", "1e300"});
    INFO(result.err);
    CHECK(result.status == 0);
    REQUIRE(std::filesystem::exists(dir.file("out/summary.json")));
    const test::CliResult info = test::run_cli({"info", dir.file("out/results.h5")});
    CHECK(info.status == 0);
    CHECK(test::has(info.out, "pipeline-results"));
    CHECK(test::has(info.out, "spikes.csv"));
    const test::CliResult mined = test::run_cli({"mine", dir.file("out/results.h5")});
    CHECK(mined.status == 1);
    CHECK(test::has(mined.err, "results.h5: the results of a spikeminer run, not a recording"));
}
