#pragma once
// Runs work that may crash or exhaust a resource in a forked child, and reports how it ended.

#include "app_test_helpers.hpp"

#include "spikeminer/core/error.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace spikeminer::test {

struct ChildResult {
    bool exited = false;  // false: killed by a signal (crash)
    int code = -1;        // 0: Error thrown, 1: no exception, 2: other exception
    std::string message;  // what() of the exception
};

/// Forks; the child runs `limit` (resource caps), then `work`, then `unlimit` (to be able
/// to report), and passes the exception's message back through `message_file`.
inline ChildResult run_in_child(const std::function<void()>& work, const std::string& message_file,
                                const std::function<void()>& limit = {}, const std::function<void()>& unlimit = {}) {
    const pid_t pid = fork();
    if (pid == 0) {
        if (limit) limit();
        int code = 1;
        std::string message;
        try {
            work();
        } catch (const Error& e) {
            code = 0;
            message = e.what();
        } catch (const std::exception& e) {
            code = 2;
            message = e.what();
        }
        if (unlimit) unlimit();
        try {
            write_file(message_file, message);
        } catch (...) {
            _exit(3);
        }
        _exit(code);
    }
    ChildResult result;
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return result;
    result.exited = WIFEXITED(status);
    result.code = result.exited ? WEXITSTATUS(status) : -WTERMSIG(status);
    if (result.exited) result.message = read_file(message_file);
    return result;
}

}  // namespace spikeminer::test
