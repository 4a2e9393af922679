#pragma once

#include <string>

namespace spikeminer::io {

/// Checks that `path` is a regular file before anything opens it: a missing path, a
/// folder, or a pipe, socket or device (which would block or never end) is an Error
/// naming the path and what it is.
void check_input_file(const std::string& path);

}  // namespace spikeminer::io
