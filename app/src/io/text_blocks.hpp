#pragma once

#include "spikeminer/core/uninitialized.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace spikeminer::io::detail {

/// A text file, plain or gzip-compressed (zlib detects which), handed out in blocks of
/// whole lines of a few MiB, read and inflated ahead on a thread of its own so that the
/// caller can parse one batch of blocks while the next is read. BGZF members (bgzf.hpp)
/// are inflated there in parallel, a batch of blocks at a time.
class TextBlocks {
public:
    /// One block: whole lines (only the file's last line may lack its '\n'), from `begin`.
    struct Block {
        UninitializedVector<char> text;
        std::size_t begin = 0;
        /// What stopped the reading here (the block is then empty and the last): a line
        /// longer than 4 MiB, a gzip stream that ends early, or a read error (`message`).
        enum class Failure { None, LongLine, Truncated, Unreadable } failure = Failure::None;
        std::string message;

        [[nodiscard]] std::string_view lines() const { return {text.data() + begin, text.size() - begin}; }
    };
    /// The longest line, in MiB.
    static constexpr std::size_t kLongestLineMiB = 4;

    /// Opens `path` and starts reading; throws Error when it cannot be opened.
    explicit TextBlocks(const std::string& path);
    ~TextBlocks();
    TextBlocks(const TextBlocks&) = delete;
    TextBlocks& operator=(const TextBlocks&) = delete;

    /// The next block; false at the end of the file. A block with a failure is the last.
    bool next(Block& block);
    /// Bytes of the file read so far (compressed bytes for gzip) and in all.
    [[nodiscard]] std::uint64_t bytes_consumed() const { return consumed_; }
    [[nodiscard]] std::uint64_t file_size() const { return file_size_; }

private:
    void read_ahead();
    // The file's BGZF members from its start, in parallel; the offset of what follows them
    // (the end of the file, or a member to inflate as a stream), or nullopt after a failure.
    std::optional<std::uint64_t> read_bgzf(UninitializedVector<char>& carry);
    // From `offset` to the end as one gzip (or plain) stream; false after a failure.
    bool read_stream(std::uint64_t offset, UninitializedVector<char>& carry);
    // Hands over the whole lines of `text` from `begin`, whose first `kept` bytes are the
    // last read's unfinished line; keeps this one's in `carry`. False after a failure.
    bool hand_over_lines(UninitializedVector<char> text, std::size_t begin, std::size_t kept, UninitializedVector<char>& carry);
    void hand_over(Block block);
    void fail(Block::Failure failure, std::string message = {});
    [[nodiscard]] bool stopped();

    std::string path_;
    int fd_ = -1;
    bool bgzf_ = false;  // the file starts with a BGZF member
    std::uint64_t file_size_ = 0;
    std::atomic<std::uint64_t> consumed_{0};
    std::mutex lock_;
    std::condition_variable changed_;
    std::deque<Block> ready_;
    bool finished_ = false;  // the reading thread has handed over its last block
    bool stop_ = false;      // the caller is gone
    std::thread reader_;
};

}  // namespace spikeminer::io::detail
