#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace spikeminer::io {

/// A file written under a temporary name in the target's folder and renamed into place
/// by commit(): a failure or a cancel never leaves a half-written result behind.
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
    std::string target_;
    std::string temp_;
    bool committed_ = false;
};

/// Writes a file through `fill` under a temporary name and renames it into place only when
/// everything was written; throws Error naming `target` when it cannot be opened or a
/// write fails (disk full?). Whatever `fill` throws leaves no file behind.
void write_atomically(const std::string& target, const std::function<void(std::ostream&)>& fill);

}  // namespace spikeminer::io
