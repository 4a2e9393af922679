#include "interruptible.hpp"

#include "spikeminer/core/error.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace spikeminer::python {
namespace {

// How often the waiting thread looks for Ctrl-C and passes progress on.
constexpr std::chrono::milliseconds kPoll{50};

struct Report {
    std::string task;
    std::uint64_t done = 0;
    std::uint64_t total = 0;
};

struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    bool finished = false;
    /// Reports not yet passed on: the latest of each task, in order (a task's start and end
    /// are passed on even when it took less than one poll).
    std::vector<Report> reports;
    std::exception_ptr failure;
};

[[noreturn]] void raise_translated(std::exception_ptr failure, ErrorKind errors) {
    try {
        std::rethrow_exception(failure);
    } catch (const UsageError& e) {
        throw py::value_error(e.what());
    } catch (const Cancelled&) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    } catch (const Error& e) {
        PyErr_SetString(errors == ErrorKind::File ? PyExc_OSError : PyExc_RuntimeError, e.what());
        throw py::error_already_set();
    } catch (const std::bad_alloc&) {
        throw;  // pybind11 raises MemoryError
    }
}

}  // namespace

void run_interruptible(const py::object& callback, ErrorKind errors, const std::function<void(Progress&)>& work) {
    Shared shared;
    CancelToken cancel;
    Progress progress(
        [&shared](const std::string& task, std::uint64_t done, std::uint64_t total) {
            const std::lock_guard lock(shared.mutex);
            if (!shared.reports.empty() && shared.reports.back().task == task) shared.reports.back() = {task, done, total};
            else shared.reports.push_back({task, done, total});
        },
        &cancel);
    std::thread worker([&] {
        try {
            work(progress);
        } catch (...) {
            shared.failure = std::current_exception();
        }
        const std::lock_guard lock(shared.mutex);
        shared.finished = true;
        shared.changed.notify_all();
    });
    // However this thread leaves (an exception of the callback or of Python), the work is
    // told to stop and is waited for: it holds references to the caller's objects.
    struct Joiner {
        std::thread& worker;
        CancelToken& cancel;
        ~Joiner() {
            if (!worker.joinable()) return;
            cancel.request();
            const py::gil_scoped_release release;
            worker.join();
        }
    } joiner{worker, cancel};
    for (;;) {
        bool finished = false;
        std::vector<Report> reports;
        {
            const py::gil_scoped_release release;
            std::unique_lock lock(shared.mutex);
            shared.changed.wait_for(lock, kPoll, [&] { return shared.finished; });
            finished = shared.finished;
            reports.swap(shared.reports);
        }
        // Work that has finished is kept: a Ctrl-C now is raised by Python after the call.
        if (!finished && PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C: the Joiner stops the work
        if (!callback.is_none()) {
            for (const Report& r : reports) callback(r.task, r.done, r.total);
        }
        if (finished) break;
    }
    worker.join();
    if (shared.failure) raise_translated(shared.failure, errors);
}

}  // namespace spikeminer::python
