// Labels that are not UTF-8 (a Latin-1 "café") reach every JSON output with the invalid
// byte written as U+FFFD: the commands used to abort on nlohmann's exception.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace spikeminer;

namespace {

const std::string kLatin1 = "caf\xe9";
const std::string kReplaced = "caf\xef\xbf\xbd";  // U+FFFD for the lone 0xE9

bool holds(const nlohmann::json& value, const std::string& text) {
    if (value.is_string()) return value.get<std::string>().find(text) != std::string::npos;
    if (value.is_structured()) {
        for (const auto& item : value) {
            if (holds(item, text)) return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("cli: labels that are not UTF-8 reach JSON as U+FFFD instead of aborting", "[cli][bad-input][json]") {
    const test::TempDir dir;
    const std::string spikes = dir.file("spikes.csv");
    test::write_file(spikes, "unit,time_s\n" + kLatin1 + ",0.1\nb,0.102\n" + kLatin1 + ",0.5\nb,0.502\n");

    const test::CliResult info = test::run_cli({"info", spikes, "--json", "--neurons"});
    CHECK(info.status == 0);
    CHECK(holds(nlohmann::json::parse(info.out), kReplaced));

    const std::string mined = dir.file("mined.json");
    CHECK(test::run_cli({"mine", spikes, "--min-count", "2", "-o", mined}).status == 0);
    CHECK(holds(nlohmann::json::parse(test::read_file(mined)), kReplaced));

    const test::CliResult count = test::run_cli({"count", spikes, "--episode", kLatin1 + " -(0,5]-> b", "--json"});
    CHECK(count.status == 0);
    CHECK(holds(nlohmann::json::parse(count.out), kReplaced));

    // The same labels in the HDF5 results keep their bytes; the summary is valid JSON.
    const std::string results = dir.file("results");
    const test::CliResult run = test::run_cli({"run", spikes, "--min-size", "2", "-o", results});
    CHECK(run.status == 0);
    CHECK_NOTHROW(nlohmann::json::parse(test::read_file(results + "/summary.json")));
}
