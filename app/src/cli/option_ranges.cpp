// Ranges every numeric option keeps, whatever its command (see commands.hpp).
#include "commands.hpp"

#include <cmath>
#include <string>

namespace spikeminer::cli {
namespace {

constexpr unsigned long kMostThreads = 4096;

// Refuses a value written with a minus sign, saying that `what` is 0 or more. CLI11 reads
// "-1" into an unsigned option as its wrap-around (2^64 - 1).
CLI::Validator not_negative(const std::string& what, const std::string& name) {
    return CLI::Validator(
        [what](std::string& text) {
            const auto first = text.find_first_not_of(" \t");
            return first != std::string::npos && text[first] == '-' ? what + " is 0 or more, not " + text : std::string();
        },
        "", name);
}

const CLI::Validator kNotNegative = not_negative("a count here", "not negative");
const CLI::Validator kDevice = not_negative("a device number", "device");

const CLI::Validator kFinite(
    [](std::string& text) {
        try {
            return std::isfinite(std::stod(text)) ? std::string() : "a number here must be finite, not " + text;
        } catch (const std::exception&) {
            return std::string();  // not a number: CLI11's conversion says so
        }
    },
    "", "finite");

const CLI::Validator kThreads(
    [](std::string& text) {
        try {
            return std::stoul(text) <= kMostThreads ? std::string() : "at most " + std::to_string(kMostThreads) + " threads, not " + text;
        } catch (const std::exception&) {
            return std::string();
        }
    },
    "", "threads");

void check(CLI::App& command) {
    for (CLI::Option* option : command.get_options()) {
        const std::string type = option->get_type_name();
        if (type.starts_with("UINT")) option->check(kNotNegative);
        if (type.starts_with("FLOAT")) option->check(kFinite);
        if (option->check_lname("threads")) option->check(kThreads);
        if (option->check_lname("devices")) option->check(kDevice);
    }
    for (CLI::App* sub : command.get_subcommands({})) check(*sub);
}

}  // namespace

void check_option_ranges(CLI::App& app) { check(app); }

}  // namespace spikeminer::cli
