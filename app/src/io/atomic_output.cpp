#include "spikeminer/app/io/atomic_output.hpp"

#include "spikeminer/core/error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>

namespace spikeminer::io {
namespace {

namespace fs = std::filesystem;

// The innermost OutputSet of this thread, if any.
thread_local OutputSet* current_set = nullptr;

}  // namespace

namespace {
std::atomic<std::size_t> writes{0};
}  // namespace

WriteInProgress::WriteInProgress() { writes.fetch_add(1); }
WriteInProgress::~WriteInProgress() { writes.fetch_sub(1); }
std::size_t writes_in_progress() { return writes.load(); }

AtomicOutput::AtomicOutput(std::string target) : target_(std::move(target)) {
    const fs::path path(target_);
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) throw Error(target_ + ": folder '" + folder.string() + "' does not exist");
    if (fs::is_directory(path, ec)) throw Error(target_ + ": is a folder, not a file");
    std::random_device random;
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a chain of string '+'.
    std::string name = ".";
    name += path.filename().string();
    name += ".partial-";
    name += std::to_string(getpid());
    name += '-';
    name += std::to_string(random() % 1000000);
    temp_ = (folder / name).string();
}

AtomicOutput::~AtomicOutput() {
    if (!committed_) {
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
    }
}

void AtomicOutput::commit() {
    if (current_set != nullptr) {
        current_set->waiting_.emplace_back(temp_, target_);
        if (!current_set->pending_) current_set->pending_.emplace();
        committed_ = true;  // the set owns the temporary file now
        return;
    }
    std::error_code ec;
    std::filesystem::rename(temp_, target_, ec);
    if (ec) throw Error(target_ + ": cannot be put in place: " + ec.message());
    committed_ = true;
}

void write_atomically(const std::string& target, const std::function<void(std::ostream&)>& fill) {
    AtomicOutput output(target);
    {
        std::ofstream file(output.temp_path(), std::ios::binary);
        if (!file) throw Error(target + ": cannot be written (" + std::strerror(errno) + ")");
        fill(file);
        file.flush();
        if (!file) throw Error(target + ": write failed (disk full?)");
    }
    output.commit();
}

OutputSet::OutputSet(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs, const CancelToken* cancel)
    : outer_(current_set), cancel_(cancel) {
    std::vector<std::string> seen;
    for (const std::string& output : outputs) {
        if (output.empty()) continue;
        std::error_code ec;
        for (const std::string& input : inputs) {
            if (!input.empty() && (output == input || fs::equivalent(output, input, ec))) {
                throw UsageError(output + ": is the input " + input + "; give another output so that the input is kept");
            }
        }
        for (const std::string& other : seen) {
            if (output == other || fs::equivalent(output, other, ec)) throw UsageError(output + ": named as two outputs");
        }
        const fs::path path(output);
        const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
        if (!fs::is_directory(folder, ec)) throw Error(output + ": folder '" + folder.string() + "' does not exist");
        if (fs::is_directory(path, ec)) throw Error(output + ": is a folder, not a file");
        seen.push_back(output);
    }
    current_set = this;
}

OutputSet::~OutputSet() {
    current_set = outer_;
    if (committed_) return;
    for (const auto& [temp, target] : waiting_) {
        std::error_code ec;
        fs::remove(temp, ec);
    }
}

void OutputSet::commit() {
    if (cancel_ != nullptr && cancel_->requested()) throw Cancelled();
    for (const auto& [temp, target] : waiting_) {
        std::error_code ec;
        fs::rename(temp, target, ec);
        if (ec) throw Error(target + ": cannot be put in place: " + ec.message());
    }
    committed_ = true;
}

void check_write_cancelled() {
    if (current_set != nullptr && current_set->cancel_ != nullptr && current_set->cancel_->requested()) throw Cancelled();
}

}  // namespace spikeminer::io
