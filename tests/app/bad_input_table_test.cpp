// Every command that reads a file, against inputs that are not what it reads: a missing
// path, a folder, a named pipe (which must not block), an empty file, binary data, an
// HDF5 signature over junk, and a gzip file whose one line is megabytes long. Each case:
// the exit code, words of the message (the path included), and nothing written.
#include "catch.hpp"
#include "cli_runner.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

using namespace spikeminer;
namespace fs = std::filesystem;

namespace {

// What a command reads its input as, which decides the words of some refusals.
enum class Reads { Spikes, Graph, Stream, Config };

struct Command {
    Reads reads;
    std::vector<std::string> args;  // "IN" is replaced by the input, "OUT/" prefixes an output
};

const std::vector<Command>& commands() {
    static const std::vector<Command> all{
        {Reads::Spikes, {"info", "IN"}},
        {Reads::Spikes, {"convert", "IN", "OUT/spikes.csv"}},
        {Reads::Spikes, {"mine", "IN", "-o", "OUT/episodes.json"}},
        {Reads::Spikes, {"count", "IN", "--episode", "a"}},
        {Reads::Spikes, {"cofiring", "IN", "-o", "OUT/edges.csv"}},
        {Reads::Spikes, {"assemblies", "IN", "-o", "OUT/assemblies.json"}},
        {Reads::Spikes, {"run", "IN", "-o", "OUT/results"}},
        {Reads::Graph, {"cliques", "IN", "-o", "OUT/cliques.txt"}},
        {Reads::Stream, {"dyngraph", "IN", "-o", "OUT/slides.csv"}},
        {Reads::Config, {"run", "--simulate", "demo", "--config", "IN", "-o", "OUT/results"}},
    };
    return all;
}

struct BadInput {
    std::string name;
    std::string path;
    // Words of the message, by what the command reads it as: spikes, graph, stream, config.
    std::array<std::string, 4> words;
};

void write_gzip(const std::string& path, const std::string& text) {
    gzFile file = gzopen(path.c_str(), "wb1");
    REQUIRE(file != nullptr);
    REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    REQUIRE(gzclose(file) == Z_OK);
}

std::vector<BadInput> bad_inputs(const test::TempDir& dir) {
    const auto all = [](const std::string& words) { return std::array<std::string, 4>{words, words, words, words}; };
    std::vector<BadInput> inputs;
    inputs.push_back({"missing", dir.file("missing.csv"), all("no such file")});
    fs::create_directory(dir.file("folder.csv"));
    inputs.push_back({"folder", dir.file("folder.csv"), all("is a folder")});
    REQUIRE(mkfifo(dir.file("pipe.csv").c_str(), 0600) == 0);
    inputs.push_back({"named pipe", dir.file("pipe.csv"), all("not a regular file")});
    test::write_file(dir.file("empty.csv"), "");
    inputs.push_back({"empty", dir.file("empty.csv"), {"the file is empty", "holds no edges", "holds no edges", "not JSON"}});
    std::string binary;
    for (int i = 0; i < 4096; ++i) binary += static_cast<char>(i * 7 % 256);
    test::write_file(dir.file("binary.csv"), binary);
    inputs.push_back({"binary", dir.file("binary.csv"), {"binary data", "binary data", "binary data", "not JSON"}});
    test::write_file(dir.file("junk.h5"), std::string("\x89HDF\r\n\x1a\n", 8) + std::string(600, '\0'));
    inputs.push_back({"HDF5 signature over junk", dir.file("junk.h5"), {"HDF5", "HDF5", "line 1", "not JSON"}});
    write_gzip(dir.file("long.csv.gz"), std::string(5 << 20, '7'));
    inputs.push_back({"a 5 MiB line", dir.file("long.csv.gz"),
                      {"longer than 4 MiB", "longer than 4 MiB", "longer than 4 MiB", "not JSON"}});
    return inputs;
}

}  // namespace

TEST_CASE("cli: every reading command refuses what is not its input, naming it, writing nothing", "[cli][bad-input]") {
    const test::TempDir dir;
    const std::string out = dir.file("out");
    for (const BadInput& input : bad_inputs(dir)) {
        for (const Command& command : commands()) {
            fs::create_directory(out);
            std::vector<std::string> args;
            for (const std::string& arg : command.args) {
                args.push_back(arg == "IN" ? input.path : arg.starts_with("OUT/") ? out + arg.substr(3) : arg);
            }
            const test::CliResult result = test::run_cli(args);
            const std::string& words = input.words[static_cast<std::size_t>(command.reads)];
            INFO(input.name << ": spikeminer " << args.front() << " " << args[1] << " ...: " << result.err);
            CHECK(result.status == (words == "not JSON" ? 2 : 1));  // a config that is not JSON is a usage error
            CHECK(test::has(result.err, input.path));
            CHECK(test::has(result.err, words));
            CHECK(fs::is_empty(out));
            fs::remove_all(out);
        }
    }
}
