#include "text_lines.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace spikeminer::io::detail {
namespace {
// Reads go in blocks of up to 4 MiB (small files get a block of their size, at least
// 64 KiB). 4 MiB is also the longest line: no spike or edge table has lines of
// megabytes, and a file that does (binary data, one enormous token) is refused before it
// fills memory.
constexpr std::size_t kMinBlockBytes = std::size_t{1} << 16;
constexpr std::size_t kBlockBytes = std::size_t{1} << 22;
}

TextLines::TextLines(const std::string& path) : path_(path) {
    check_input_file(path);
    std::error_code ec;
    file_size_ = std::filesystem::file_size(path, ec);
    buffer_.resize(std::clamp<std::size_t>(file_size_ + 1, kMinBlockBytes, kBlockBytes));
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) throw Error(path + ": cannot be opened: " + std::strerror(errno));
    gzbuffer(file_, 1 << 18);
}

TextLines::~TextLines() {
    if (file_ != nullptr) gzclose_r(file_);
}

std::uint64_t TextLines::bytes_consumed() const {
    const auto offset = gzoffset(file_);
    return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
}

bool TextLines::refill() {
    if (eof_) return false;
    // Keep the unfinished line at the front.
    const std::size_t carry = end_ - begin_;
    if (carry == buffer_.size() && buffer_.size() < kBlockBytes) {
        buffer_.resize(std::min(buffer_.size() * 4, kBlockBytes));  // a compressed file, or one line fills the block
    } else if (carry == buffer_.size()) {
        throw Error(path_ + " line " + std::to_string(line_number_ + 1) + ": longer than " +
                    std::to_string(kBlockBytes >> 20) + " MiB: not a table of spikes or edges");
    }
    std::memmove(buffer_.data(), buffer_.data() + begin_, carry);
    begin_ = 0;
    end_ = carry;
    const int got = gzread(file_, buffer_.data() + end_, static_cast<unsigned>(buffer_.size() - end_));
    if (got < 0) {
        int code = 0;
        const char* message = gzerror(file_, &code);
        throw Error(path_ + ": cannot be read: " + (code == Z_ERRNO ? std::strerror(errno) : message));
    }
    if (got == 0) {
        int code = Z_OK;
        gzerror(file_, &code);
        if (code == Z_BUF_ERROR) {
            throw Error(path_ + ": the gzip stream ends early (truncated file) after line " +
                        std::to_string(line_number_));
        }
        eof_ = true;
        return false;
    }
    end_ += static_cast<std::size_t>(got);
    return true;
}

bool TextLines::next(std::string_view& line) {
    for (;;) {
        const char* start = buffer_.data() + begin_;
        const void* newline = std::memchr(start, '\n', end_ - begin_);
        if (newline != nullptr) {
            const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
            line = std::string_view(start, length);
            begin_ += length + 1;
            break;
        }
        if (!refill()) {
            if (begin_ == end_) return false;
            line = std::string_view(buffer_.data() + begin_, end_ - begin_);  // last line without \n
            begin_ = end_;
            break;
        }
    }
    if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
        throw Error(path_ + " line " + std::to_string(line_number_ + 1) + ": holds a NUL byte: binary data, not text");
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_number_ == 0 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // UTF-8 byte-order mark
    ++line_number_;
    return true;
}

}  // namespace spikeminer::io::detail
