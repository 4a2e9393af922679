#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spikeminer::io::detail {

/// Reads a text file line by line, plain or gzip-compressed (zlib detects which), in
/// large blocks. Lines come without their end-of-line characters (\n or \r\n).
class TextLines {
public:
    /// Opens `path`; throws Error when it cannot be opened.
    explicit TextLines(const std::string& path);
    ~TextLines();
    TextLines(const TextLines&) = delete;
    TextLines& operator=(const TextLines&) = delete;

    /// The next line; false at the end. Throws Error naming the file when the data is
    /// damaged (a truncated or corrupt gzip stream) or is not text: a line longer than
    /// 4 MiB or holding a NUL byte.
    bool next(std::string_view& line);
    /// 1-based number of the line last returned.
    [[nodiscard]] std::uint64_t line_number() const { return line_number_; }
    /// Bytes of the file consumed so far (compressed bytes for gzip) and in all.
    [[nodiscard]] std::uint64_t bytes_consumed() const;
    [[nodiscard]] std::uint64_t file_size() const { return file_size_; }

private:
    bool refill();

    std::string path_;
    gzFile file_ = nullptr;
    std::vector<char> buffer_;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    bool eof_ = false;
    std::uint64_t line_number_ = 0;
    std::uint64_t file_size_ = 0;
};

}  // namespace spikeminer::io::detail
