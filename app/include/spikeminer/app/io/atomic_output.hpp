#pragma once

#include "spikeminer/core/progress.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace spikeminer::io {

/// Counts one file or folder being written under a temporary name for its lifetime: while
/// any is, a stop must go through the cleanup that removes it (Ctrl-C's prompt exit waits).
class WriteInProgress {
public:
    WriteInProgress();
    ~WriteInProgress();
    WriteInProgress(const WriteInProgress&) = delete;
    WriteInProgress& operator=(const WriteInProgress&) = delete;
};

/// How many WriteInProgress live now, on any thread.
std::size_t writes_in_progress();

/// A file written under a temporary name in the target's folder and renamed into place
/// by commit() (or by the thread's OutputSet's commit, when there is one): a failure or a
/// cancel never leaves a half-written result behind.
class AtomicOutput {
public:
    /// Chooses the temporary path; throws Error when the folder does not exist.
    explicit AtomicOutput(std::string target);
    ~AtomicOutput();
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    /// Where to write now.
    [[nodiscard]] const std::string& temp_path() const { return temp_; }
    /// Moves the finished temporary file onto the target.
    void commit();

private:
    WriteInProgress writing_;
    std::string target_;
    std::string temp_;
    bool committed_ = false;
};

/// The files one command writes, put in place all together or not at all. While an
/// OutputSet lives on a thread, each AtomicOutput committed on that thread waits, under its
/// temporary name, for the set's commit(), which moves them all into place; a set
/// destroyed without commit() removes them. Made before the work, it refuses an output
/// that is one of `inputs` (the same file by any path, a hard link or a symlink) and an
/// output named twice (UsageError), and an output that is a folder or whose folder does not
/// exist (Error, as when writing it). Empty names are skipped. With a `cancel` token, a
/// cancel requested while the files are written stops the writers at their next block
/// (check_write_cancelled) and commit() then moves nothing: Cancelled, no file in place.
class OutputSet {
public:
    OutputSet(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs,
              const CancelToken* cancel = nullptr);
    ~OutputSet();
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;

    /// Moves every file written since the set was made into place; throws Cancelled,
    /// moving none, when the set's cancel token was requested.
    void commit();

private:
    friend class AtomicOutput;
    friend void check_write_cancelled();
    std::vector<std::pair<std::string, std::string>> waiting_;  // (temporary, target)
    std::optional<WriteInProgress> pending_;                   // while files wait for commit()
    OutputSet* outer_;
    const CancelToken* cancel_;
    bool committed_ = false;
};

/// Throws Cancelled when the thread's OutputSet has a cancel token that was requested.
/// Writers call it between blocks, so that Ctrl-C stops a long write too.
void check_write_cancelled();

/// Writes a file through `fill` under a temporary name and renames it into place only when
/// everything was written; throws Error naming `target` when it cannot be opened or a
/// write fails (disk full?). Whatever `fill` throws leaves no file behind.
void write_atomically(const std::string& target, const std::function<void(std::ostream&)>& fill);

}  // namespace spikeminer::io
