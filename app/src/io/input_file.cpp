#include "spikeminer/app/io/input_file.hpp"

#include "spikeminer/core/error.hpp"

#include <filesystem>

namespace spikeminer::io {

void check_input_file(const std::string& path) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    switch (status.type()) {
        case std::filesystem::file_type::regular: return;
        case std::filesystem::file_type::not_found: throw Error(path + ": no such file");
        case std::filesystem::file_type::directory:
            throw Error(path + ": is a folder, not a file (a Kilosort / Phy folder would hold spike_times.npy)");
        case std::filesystem::file_type::none: throw Error(path + ": cannot be examined: " + ec.message());
        default: throw Error(path + ": is not a regular file (a pipe, socket or device): give a file on disk");
    }
}

}  // namespace spikeminer::io
