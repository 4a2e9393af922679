#pragma once
// BGZF, the blocked gzip of genomics (htslib's bgzip): a gzip file of members of at most
// 64 KiB, each stating its own compressed size in a "BC" extra field. Any gzip reader reads
// it as one stream; a reader that knows the field finds every member without inflating the
// ones before it, so the members inflate on all cores. The writers compress .gz text this
// way, in parallel, and the text reader inflates such files in parallel.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spikeminer::io::detail {

/// The largest member's text: what bgzip puts in one, so that even text that does not
/// compress fits the 64 KiB member when stored.
inline constexpr std::size_t kBgzfTextBytes = 0xff00;
/// A member's header, and its trailer (CRC-32 and the text's length).
inline constexpr std::size_t kBgzfHeaderBytes = 18;
inline constexpr std::size_t kBgzfTrailerBytes = 8;

/// One member found at the front of some bytes.
struct BgzfMember {
    std::size_t bytes = 0;       ///< the whole member: header, deflate data and trailer
    std::uint32_t text_bytes = 0;  ///< its inflated size (the trailer's ISIZE)
};

/// The BGZF member at the front of `data`, where its header holds a "BC" field; nullopt
/// where it does not (a plain gzip member, or no gzip) or where `data` ends within the
/// member (the caller reads more, or the file is cut).
[[nodiscard]] std::optional<BgzfMember> bgzf_member(std::string_view data);
/// Whether `data` begins like a BGZF member (its header, without its size being checked).
[[nodiscard]] bool starts_bgzf(std::string_view data);

/// Inflates `member` (as found by bgzf_member) into `text` (its text_bytes); an empty
/// string, or what is wrong (its data does not inflate, or fails its CRC-32).
[[nodiscard]] std::string inflate_bgzf(std::string_view member, char* text, std::uint32_t text_bytes);

/// Appends `text` to `out` as BGZF members of up to kBgzfTextBytes each, deflated at `level`.
void append_bgzf(std::string_view text, int level, std::string& out);
/// The empty member that ends a BGZF file (its end-of-file marker).
[[nodiscard]] std::string_view bgzf_end();

}  // namespace spikeminer::io::detail
