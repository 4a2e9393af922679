#include "bgzf.hpp"

#include "spikeminer/core/error.hpp"

#include <zlib.h>

#include <array>
#include <cstring>

namespace spikeminer::io::detail {
namespace {

// A member: the gzip header with FLG = FEXTRA and a 6-byte extra field holding the "BC"
// subfield (BSIZE: the member's size less one), the raw deflate data, then CRC-32 and ISIZE.
constexpr std::size_t kMemberLimit = std::size_t{1} << 16;
constexpr unsigned char kFextra = 4;

std::uint32_t little_endian(const unsigned char* at, int bytes) {
    std::uint32_t value = 0;
    for (int i = bytes - 1; i >= 0; --i) value = value << 8 | at[i];
    return value;
}

void put_little_endian(std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
}

// The header's length and the member's size (BSIZE + 1), where `data` starts with a BGZF header.
struct Header {
    std::size_t bytes = 0;
    std::size_t member_bytes = 0;
};

std::optional<Header> header_of(std::string_view data) {
    const auto* at = reinterpret_cast<const unsigned char*>(data.data());
    if (data.size() < 12 || at[0] != 0x1f || at[1] != 0x8b || at[2] != Z_DEFLATED || at[3] != kFextra) return std::nullopt;
    const std::size_t extra = little_endian(at + 10, 2);
    if (data.size() < 12 + extra) return std::nullopt;
    for (std::size_t field = 12; field + 4 <= 12 + extra;) {
        const std::size_t length = little_endian(at + field + 2, 2);
        if (at[field] == 'B' && at[field + 1] == 'C' && length == 2 && field + 6 <= 12 + extra) {
            const Header header{12 + extra, static_cast<std::size_t>(little_endian(at + field + 4, 2)) + 1};
            if (header.member_bytes < header.bytes + kBgzfTrailerBytes) return std::nullopt;
            return header;
        }
        field += 4 + length;
    }
    return std::nullopt;
}

// One member of `text` (at most kBgzfTextBytes) deflated by `stream` (raw deflate, reset
// here), or nullopt when it does not fit a member.
std::optional<std::string> member_of(std::string_view text, z_stream& stream) {
    std::string out(kMemberLimit, '\0');
    deflateReset(&stream);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + kBgzfHeaderBytes);
    stream.avail_out = static_cast<uInt>(kMemberLimit - kBgzfHeaderBytes - kBgzfTrailerBytes);
    if (deflate(&stream, Z_FINISH) != Z_STREAM_END) return std::nullopt;
    const std::size_t member = kBgzfHeaderBytes + stream.total_out + kBgzfTrailerBytes;
    const std::array<unsigned char, kBgzfHeaderBytes> header{0x1f, 0x8b, Z_DEFLATED, kFextra, 0, 0, 0, 0, 0, 0xff, 6, 0, 'B', 'C', 2, 0,
                                                             static_cast<unsigned char>((member - 1) & 0xff),
                                                             static_cast<unsigned char>((member - 1) >> 8)};
    std::memcpy(out.data(), header.data(), header.size());
    out.resize(kBgzfHeaderBytes + stream.total_out);
    const auto* bytes = reinterpret_cast<const Bytef*>(text.data());
    put_little_endian(out, static_cast<std::uint32_t>(crc32(crc32(0, nullptr, 0), bytes, static_cast<uInt>(text.size()))), 4);
    put_little_endian(out, static_cast<std::uint32_t>(text.size()), 4);
    return out;
}

// A raw-deflate stream at `level`, ended when it goes out of scope.
struct Deflater {
    z_stream stream{};
    explicit Deflater(int level) {
        if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw Error("zlib: cannot start compressing");
    }
    ~Deflater() { deflateEnd(&stream); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;
};

}  // namespace

bool starts_bgzf(std::string_view data) { return header_of(data).has_value(); }

std::optional<BgzfMember> bgzf_member(std::string_view data) {
    const std::optional<Header> header = header_of(data);
    if (!header || data.size() < header->member_bytes) return std::nullopt;
    const auto* end = reinterpret_cast<const unsigned char*>(data.data()) + header->member_bytes;
    return BgzfMember{header->member_bytes, little_endian(end - 4, 4)};
}

std::string inflate_bgzf(std::string_view member, char* text, std::uint32_t text_bytes) {
    const std::optional<Header> header = header_of(member);
    if (!header) return "not a BGZF member";
    z_stream stream{};
    if (inflateInit2(&stream, -15) != Z_OK) return "zlib cannot start inflating";
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data() + header->bytes));
    stream.avail_in = static_cast<uInt>(header->member_bytes - header->bytes - kBgzfTrailerBytes);
    stream.next_out = reinterpret_cast<Bytef*>(text);
    stream.avail_out = text_bytes;
    // A member that inflates to more than its ISIZE stops with the output full (Z_BUF_ERROR
    // or Z_OK), not at its end.
    const int status = inflate(&stream, Z_FINISH);
    const bool whole = status == Z_STREAM_END && stream.total_out == text_bytes && stream.avail_in == 0;
    inflateEnd(&stream);
    if (!whole) return "its deflate data is damaged";
    const auto* trailer = reinterpret_cast<const unsigned char*>(member.data()) + header->member_bytes - kBgzfTrailerBytes;
    if (crc32(crc32(0, nullptr, 0), reinterpret_cast<const Bytef*>(text), text_bytes) != little_endian(trailer, 4)) {
        return "it fails its CRC-32 check";
    }
    return {};
}

void append_bgzf(std::string_view text, int level, std::string& out) {
    Deflater deflater(level);
    std::optional<Deflater> stored;  // for text that does not compress into a member
    for (std::size_t at = 0; at < text.size(); at += kBgzfTextBytes) {
        const std::string_view piece = text.substr(at, kBgzfTextBytes);
        std::optional<std::string> member = member_of(piece, deflater.stream);
        if (!member) {
            if (!stored) stored.emplace(0);
            member = member_of(piece, stored->stream);
            if (!member) throw Error("zlib: a BGZF member does not fit 64 KiB even stored");
        }
        out += *member;
    }
}

std::string_view bgzf_end() {
    static constexpr std::array<char, 28> kEnd{0x1f, static_cast<char>(0x8b), 8, 4, 0, 0, 0, 0, 0, static_cast<char>(0xff), 6, 0, 'B', 'C',
                                               2, 0, 0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    return {kEnd.data(), kEnd.size()};
}

}  // namespace spikeminer::io::detail
