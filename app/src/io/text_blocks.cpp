#include "text_blocks.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace spikeminer::io::detail {
namespace {
// Blocks of about 4 MiB, and as many read ahead as a batch of parsing threads takes twice.
// 4 MiB is also the longest line, as for TextLines: a file with longer ones (binary data,
// one enormous token) is refused before it fills memory.
constexpr std::size_t kBlockBytes = TextBlocks::kLongestLineMiB << 20;
constexpr std::size_t kReadAhead = 64;
}  // namespace

TextBlocks::TextBlocks(const std::string& path) : path_(path) {
    check_input_file(path);
    std::error_code ec;
    file_size_ = std::filesystem::file_size(path, ec);
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) throw Error(path + ": cannot be opened: " + std::strerror(errno));
    gzbuffer(file_, 1 << 18);
    reader_ = std::thread([this] { read_ahead(); });
}

TextBlocks::~TextBlocks() {
    {
        const std::lock_guard guard(lock_);
        stop_ = true;
    }
    changed_.notify_all();
    reader_.join();
    gzclose_r(file_);
}

void TextBlocks::hand_over(Block block) {
    std::unique_lock guard(lock_);
    changed_.wait(guard, [&] { return stop_ || ready_.size() < kReadAhead; });
    ready_.push_back(std::move(block));
    changed_.notify_all();
}

bool TextBlocks::next(Block& block) {
    std::unique_lock guard(lock_);
    changed_.wait(guard, [&] { return !ready_.empty() || finished_; });
    if (ready_.empty()) return false;
    block = std::move(ready_.front());
    ready_.pop_front();
    changed_.notify_all();
    return true;
}

void TextBlocks::read_ahead() {
    UninitializedVector<char> carry;  // the unfinished line at the end of the last read
    const auto fail = [&](Block::Failure failure, std::string message = {}) { hand_over(Block{{}, failure, std::move(message)}); };
    for (;;) {
        {
            const std::lock_guard guard(lock_);
            if (stop_) break;
        }
        UninitializedVector<char> text = std::move(carry);
        carry.clear();
        const std::size_t kept = text.size();
        text.resize(kept + kBlockBytes);
        const int got = gzread(file_, text.data() + kept, static_cast<unsigned>(kBlockBytes));
        const auto offset = gzoffset(file_);
        consumed_ = offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
        if (got < 0) {
            int code = 0;
            const char* message = gzerror(file_, &code);
            fail(Block::Failure::Unreadable, code == Z_ERRNO ? std::strerror(errno) : message);
            break;
        }
        text.resize(kept + static_cast<std::size_t>(got));
        if (got == 0) {
            int code = Z_OK;
            gzerror(file_, &code);
            if (code == Z_BUF_ERROR) {
                fail(Block::Failure::Truncated);
            } else if (!text.empty()) {
                hand_over(Block{std::move(text), Block::Failure::None, {}});  // the last line, without its '\n'
            }
            break;
        }
        // Only the line begun in the carry can be longer than a read.
        const auto first_newline = std::find(text.begin() + static_cast<std::ptrdiff_t>(kept), text.end(), '\n');
        if (first_newline - text.begin() >= static_cast<std::ptrdiff_t>(kBlockBytes)) {
            fail(Block::Failure::LongLine);
            break;
        }
        if (first_newline == text.end()) {
            carry = std::move(text);
            continue;
        }
        const auto line_ends = std::find(text.rbegin(), text.rend(), '\n').base();  // just past the last '\n'
        carry.assign(line_ends, text.end());
        text.erase(line_ends, text.end());
        hand_over(Block{std::move(text), Block::Failure::None, {}});
    }
    const std::lock_guard guard(lock_);
    finished_ = true;
    changed_.notify_all();
}

}  // namespace spikeminer::io::detail
