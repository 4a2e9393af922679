#pragma once
// Runs the built `spikeminer` program through the shell, capturing what it prints.

#include "app_test_helpers.hpp"
#include "test_paths.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace spikeminer::test {

struct CliResult {
    int status = -1;  // exit code, or -1 when the program did not exit normally
    std::string out;
    std::string err;
};

inline std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    return quoted + "'";
}

/// Runs `spikeminer ARGS...` with stdout and stderr captured to files. A run that hangs
/// is stopped after 10 minutes (exit 124): a guard against hangs, not a time limit.
inline CliResult run_cli(const std::vector<std::string>& args) {
    const TempDir capture;
    std::string command = "timeout -k 10 600 " + shell_quote(SPIKEMINER_CLI);
    for (const auto& arg : args) command += " " + shell_quote(arg);
    command += " </dev/null >" + shell_quote(capture.file("out")) + " 2>" + shell_quote(capture.file("err"));
    const int raw = std::system(command.c_str());
    CliResult result;
    result.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
    result.out = read_file(capture.file("out"));
    result.err = read_file(capture.file("err"));
    return result;
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace spikeminer::test
