#pragma once
// Long calls of the Python module: the work runs on a thread of its own without the GIL,
// while the calling (main) thread waits, passes its progress to the Python callback and
// checks for Ctrl-C. Ctrl-C cancels the work (its Progress says so at its next step) and
// raises KeyboardInterrupt once the work has stopped, so nothing is left half-written.

#include "spikeminer/core/progress.hpp"

#include <pybind11/pybind11.h>

#include <exception>
#include <functional>

namespace spikeminer::python {

/// How a library Error (not a UsageError) of this call reaches Python.
enum class ErrorKind { Runtime, File };

/// Runs `work` (which must not touch Python objects) with a Progress that reports to
/// `callback` (None, or a callable taking task, done, total) on the calling thread.
/// Translates the library's exceptions: UsageError to ValueError, Error to OSError (File)
/// or RuntimeError, Cancelled after Ctrl-C to KeyboardInterrupt; an exception of the
/// callback cancels the work and is raised.
void run_interruptible(const pybind11::object& callback, ErrorKind errors, const std::function<void(Progress&)>& work);

}  // namespace spikeminer::python
