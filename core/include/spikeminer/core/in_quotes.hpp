#pragma once

#include <string>
#include <string_view>

namespace spikeminer {

/// Text from a file, in single quotes, for an error message: bytes outside printable
/// ASCII written as \xNN, and text longer than 60 bytes cut there with its length told
/// ("'abc...' (10485760 bytes)"), so that a message never echoes megabytes or binary.
std::string in_quotes(std::string_view text);

/// A number a person gave, for a message: at most ten significant digits ("1e+300", not
/// the 301 digits std::to_string writes).
std::string shown(double value);

}  // namespace spikeminer
