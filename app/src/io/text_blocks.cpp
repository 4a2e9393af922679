#include "text_blocks.hpp"

#include "bgzf.hpp"
#include "plain_threads.hpp"

#include "spikeminer/app/io/input_file.hpp"
#include "spikeminer/core/error.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <vector>

namespace spikeminer::io::detail {
namespace {
// Blocks of about 4 MiB, and as many read ahead as a batch of parsing threads takes twice.
// 4 MiB is also the longest line, as for TextLines: a file with longer ones (binary data,
// one enormous token) is refused before it fills memory.
constexpr std::size_t kBlockBytes = TextBlocks::kLongestLineMiB << 20;
constexpr std::size_t kReadAhead = 64;
// Room before a BGZF block's text for the unfinished line of the block before it, so that
// joining them copies that line alone.
constexpr std::size_t kHeadroom = std::size_t{64} << 10;

struct GzClose {
    void operator()(gzFile file) const { gzclose_r(file); }
};

// BGZF members taken together: [from, to) of the bytes read, `text_bytes` inflated.
struct Chunk {
    std::size_t from = 0;
    std::size_t to = 0;
    std::size_t text_bytes = 0;
};
}  // namespace

TextBlocks::TextBlocks(const std::string& path) : path_(path) {
    check_input_file(path);
    std::error_code ec;
    file_size_ = std::filesystem::file_size(path, ec);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(path + ": cannot be opened: " + std::strerror(errno));
    std::string head(kBgzfHeaderBytes, '\0');
    const ssize_t got = ::pread(fd_, head.data(), head.size(), 0);
    bgzf_ = got > 0 && starts_bgzf(std::string_view(head.data(), static_cast<std::size_t>(got)));
    reader_ = std::thread([this] { read_ahead(); });
}

TextBlocks::~TextBlocks() {
    {
        const std::lock_guard guard(lock_);
        stop_ = true;
    }
    changed_.notify_all();
    reader_.join();
    ::close(fd_);
}

void TextBlocks::hand_over(Block block) {
    std::unique_lock guard(lock_);
    changed_.wait(guard, [&] { return stop_ || ready_.size() < kReadAhead; });
    ready_.push_back(std::move(block));
    changed_.notify_all();
}

void TextBlocks::fail(Block::Failure failure, std::string message) { hand_over(Block{{}, 0, failure, std::move(message)}); }

bool TextBlocks::stopped() {
    const std::lock_guard guard(lock_);
    return stop_;
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

bool TextBlocks::hand_over_lines(UninitializedVector<char> text, std::size_t begin, std::size_t kept, UninitializedVector<char>& carry) {
    const auto from = text.begin() + static_cast<std::ptrdiff_t>(begin);
    // Only the line begun in the carry can be longer than a read.
    const auto first_newline = std::find(from + static_cast<std::ptrdiff_t>(kept), text.end(), '\n');
    if (first_newline - from >= static_cast<std::ptrdiff_t>(kBlockBytes)) {
        fail(Block::Failure::LongLine);
        return false;
    }
    if (first_newline == text.end()) {
        carry.assign(from, text.end());
        return true;
    }
    const auto line_ends = std::find(text.rbegin(), text.rend(), '\n').base();  // just past the last '\n'
    carry.assign(line_ends, text.end());
    text.erase(line_ends, text.end());
    hand_over(Block{std::move(text), begin, Block::Failure::None, {}});
    return true;
}

void TextBlocks::read_ahead() {
    try {
        UninitializedVector<char> carry;  // the unfinished line at the end of the last read
        std::optional<std::uint64_t> from = 0;
        if (bgzf_) from = read_bgzf(carry);
        if (from && (!bgzf_ || *from < file_size_)) {
            const std::uint64_t start = *from;
            from.reset();
            if (read_stream(start, carry)) from = file_size_;
        }
        if (from && !carry.empty()) hand_over(Block{std::move(carry), 0, Block::Failure::None, {}});  // the last line, without its '\n'
    } catch (const std::bad_alloc&) {
        fail(Block::Failure::Unreadable, "no memory for its blocks");
    } catch (const std::exception& e) {
        fail(Block::Failure::Unreadable, e.what());
    }
    const std::lock_guard guard(lock_);
    finished_ = true;
    changed_.notify_all();
}

std::optional<std::uint64_t> TextBlocks::read_bgzf(UninitializedVector<char>& carry) {
    const std::size_t batch = plain_thread_count();  // blocks inflated at once, one a thread
    std::string bytes;  // read and not yet inflated, from `offset` in the file
    std::uint64_t offset = 0;
    bool at_end = false;
    bool ended = false;  // the last member taken is empty: BGZF's end-of-file marker
    for (;;) {
        if (stopped()) return std::nullopt;
        // Enough for a block a thread where the text compresses at least twofold (CSV of
        // spikes: four- to fivefold); less leaves fewer blocks to the batch, not fewer read.
        const std::size_t want = batch * kBlockBytes / 2;
        while (!at_end && bytes.size() < want) {
            const std::size_t had = bytes.size();
            bytes.resize(want);
            const ssize_t got = ::pread(fd_, bytes.data() + had, want - had, static_cast<off_t>(offset + had));
            bytes.resize(had + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
            if (got < 0 && errno != EINTR) {
                fail(Block::Failure::Unreadable, std::strerror(errno));
                return std::nullopt;
            }
            at_end = got == 0;
        }
        // The batch's blocks: whole members of up to kBlockBytes of text each.
        std::vector<Chunk> chunks;
        Chunk chunk;
        std::size_t at = 0;
        bool irregular = false;  // a member that is not BGZF, or cut short
        while (chunks.size() < batch) {
            const std::optional<BgzfMember> member = bgzf_member(std::string_view(bytes).substr(at));
            // A member of more text than a block is left to the stream (BGZF's hold 64 KiB).
            if (!member || member->text_bytes > kBlockBytes) {
                irregular = at_end || bytes.size() - at >= kBlockBytes || member;
                break;
            }
            ended = member->text_bytes == 0;
            if (chunk.text_bytes + member->text_bytes > kBlockBytes && chunk.to > chunk.from) {
                chunks.push_back(chunk);
                chunk = Chunk{at, at, 0};
                if (chunks.size() == batch) break;
            }
            at += member->bytes;
            chunk.to = at;
            chunk.text_bytes += member->text_bytes;
        }
        if (chunk.to > chunk.from && chunks.size() < batch) chunks.push_back(chunk);
        at = chunks.empty() ? 0 : chunks.back().to;
        std::vector<UninitializedVector<char>> texts(chunks.size());
        std::vector<std::string> errors(chunks.size());
        on_plain_threads(chunks.size(), batch, [&](std::size_t c) {
            texts[c].resize(kHeadroom + chunks[c].text_bytes);
            char* text = texts[c].data() + kHeadroom;
            for (std::size_t m = chunks[c].from; m < chunks[c].to && errors[c].empty();) {
                const std::string_view rest = std::string_view(bytes).substr(m);
                const BgzfMember member = *bgzf_member(rest);
                const std::string wrong = inflate_bgzf(rest.substr(0, member.bytes), text, member.text_bytes);
                if (!wrong.empty()) errors[c] = "the BGZF member at byte " + std::to_string(offset + m) + ": " + wrong;
                text += member.text_bytes;
                m += member.bytes;
            }
        });
        for (std::size_t c = 0; c < chunks.size(); ++c) {
            if (!errors[c].empty()) {
                fail(Block::Failure::Unreadable, errors[c]);
                return std::nullopt;
            }
            UninitializedVector<char> text = std::move(texts[c]);
            const std::size_t kept = carry.size();
            std::size_t begin = kHeadroom - std::min(kept, kHeadroom);
            if (kept <= kHeadroom) {
                std::copy(carry.begin(), carry.end(), text.begin() + static_cast<std::ptrdiff_t>(begin));
            } else {
                text.erase(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(kHeadroom));
                text.insert(text.begin(), carry.begin(), carry.end());
            }
            consumed_ = offset + chunks[c].to;
            if (!hand_over_lines(std::move(text), begin, kept, carry)) return std::nullopt;
        }
        bytes.erase(0, at);
        offset += at;
        if (irregular || (at_end && bytes.empty())) {
            // What follows the members: a member to read as a stream; or nothing, or data
            // that is no gzip member (which gzip readers ignore after the first member),
            // after the end-of-file marker (without it, the file was cut between members).
            const bool gzip_follows = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                                      static_cast<unsigned char>(bytes[1]) == 0x8b;
            if (gzip_follows) return offset;
            if (!ended) {
                fail(Block::Failure::Truncated);
                return std::nullopt;
            }
            return file_size_;
        }
    }
}

bool TextBlocks::read_stream(std::uint64_t offset, UninitializedVector<char>& carry) {
    const int fd = ::dup(fd_);
    if (fd < 0 || ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) {
        const int error = errno;
        if (fd >= 0) ::close(fd);
        fail(Block::Failure::Unreadable, std::strerror(error));
        return false;
    }
    const std::unique_ptr<gzFile_s, GzClose> file(gzdopen(fd, "rb"));
    if (!file) {
        ::close(fd);
        fail(Block::Failure::Unreadable, "zlib cannot read it");
        return false;
    }
    gzbuffer(file.get(), 1 << 18);
    while (!stopped()) {
        UninitializedVector<char> text = std::move(carry);
        carry.clear();
        const std::size_t kept = text.size();
        text.resize(kept + kBlockBytes);
        const int got = gzread(file.get(), text.data() + kept, static_cast<unsigned>(kBlockBytes));
        const auto at = gzoffset(file.get());
        consumed_ = at < 0 ? 0 : static_cast<std::uint64_t>(at);
        if (got < 0) {
            int code = 0;
            const char* message = gzerror(file.get(), &code);
            fail(Block::Failure::Unreadable, code == Z_ERRNO ? std::strerror(errno) : message);
            return false;
        }
        text.resize(kept + static_cast<std::size_t>(got));
        if (got == 0) {
            int code = Z_OK;
            gzerror(file.get(), &code);
            if (code == Z_BUF_ERROR) {
                fail(Block::Failure::Truncated);
                return false;
            }
            carry = std::move(text);
            return true;
        }
        if (!hand_over_lines(std::move(text), 0, kept, carry)) return false;
    }
    return false;
}

}  // namespace spikeminer::io::detail
