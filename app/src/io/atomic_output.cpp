#include "spikeminer/app/io/atomic_output.hpp"

#include "spikeminer/core/error.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace spikeminer::io {

AtomicOutput::AtomicOutput(std::string target) : target_(std::move(target)) {
    namespace fs = std::filesystem;
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

}  // namespace spikeminer::io
