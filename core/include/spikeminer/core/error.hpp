#pragma once

#include <stdexcept>
#include <string>

namespace spikeminer {

/// A failure the user can act on: bad input, a missing file, an impossible request.
/// The message names the file, line or dataset and says what is wrong. Exit code 1.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A wrong command line or parameter value. Exit code 2.
class UsageError : public Error {
public:
    using Error::Error;
};

/// A GPU engine ran out of device memory; the engines' dispatchers catch it and fall
/// back to the CPU with a warning.
class GpuOutOfMemory : public Error {
public:
    using Error::Error;
};

/// The user asked to stop (Cancel button, Ctrl-C). Not an error: no output is written.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace spikeminer
