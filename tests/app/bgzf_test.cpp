// BGZF, the gzip of members of at most 64 KiB that the text writers make and the text
// reader inflates in parallel: any gzip reader reads what is written, each member is found
// from its header alone, a line may cross any number of members, and a damaged or cut file
// is refused like a damaged or cut gzip stream.
#include "app_test_helpers.hpp"
#include "catch.hpp"
#include "test_paths.hpp"

#include "io/bgzf.hpp"
#include "spikeminer/app/io/read_spikes.hpp"
#include "spikeminer/core/error.hpp"

#include <zlib.h>

#include <random>
#include <string>
#include <vector>

using namespace spikeminer;

namespace {

std::string bgzf_of(const std::string& text) {
    std::string bytes;
    io::detail::append_bgzf(text, 6, bytes);
    return bytes;
}

// The file's text as zlib's gzip reader gives it.
std::string gunzip(const std::string& path) {
    gzFile file = gzopen(path.c_str(), "rb");
    REQUIRE(file != nullptr);
    std::string text;
    char buffer[1 << 16];
    int got = 0;
    while ((got = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
    CHECK(got == 0);
    gzclose(file);
    return text;
}

// The members' offsets, walked from their headers.
std::vector<std::size_t> members_of(const std::string& bytes) {
    std::vector<std::size_t> at;
    for (std::size_t offset = 0; offset < bytes.size();) {
        const auto member = io::detail::bgzf_member(std::string_view(bytes).substr(offset));
        REQUIRE(member);
        at.push_back(offset);
        offset += member->bytes;
    }
    return at;
}

// `rows` spike rows, unit r % 13 at r ms, after the header.
std::string table(std::size_t rows) {
    std::string text = "unit,time_s\n";
    for (std::size_t r = 0; r < rows; ++r) text += std::to_string(r % 13) + "," + std::to_string(r) + "e-3\n";
    return text;
}

}  // namespace

TEST_CASE("BGZF: any gzip reader reads it, and its members are found and inflated one by one", "[text][bgzf]") {
    std::mt19937 random(7);
    std::string noise(300'000, '\0');
    for (char& c : noise) c = static_cast<char>(random());
    const std::vector<std::string> texts{"", "a line\n", table(120'000), noise};
    const test::TempDir dir;
    for (const std::string& text : texts) {
        CAPTURE(text.size());
        const std::string bytes = bgzf_of(text) + std::string(io::detail::bgzf_end());
        const std::string path = dir.file("t.gz");
        test::write_file(path, bytes);
        CHECK(gunzip(path) == text);
        std::string inflated;
        for (const std::size_t offset : members_of(bytes)) {
            const std::string_view rest = std::string_view(bytes).substr(offset);
            const io::detail::BgzfMember member = *io::detail::bgzf_member(rest);
            CHECK(member.bytes <= std::size_t{1} << 16);
            CHECK(member.text_bytes <= io::detail::kBgzfTextBytes);
            std::string piece(member.text_bytes, '\0');
            CHECK(io::detail::inflate_bgzf(rest.substr(0, member.bytes), piece.data(), member.text_bytes).empty());
            inflated += piece;
        }
        CHECK(inflated == text);
        // A header cut short is no member; a plain gzip member is none either.
        CHECK(!io::detail::bgzf_member(std::string_view(bytes).substr(0, 20)));
    }
    const std::string plain = dir.file("plain.gz");
    test::write_gzip(plain, "x\n");
    CHECK(!io::detail::starts_bgzf(test::read_file(plain)));
}

TEST_CASE("BGZF: lines across members and blocks read as in the plain file; a line of 5 MiB is refused", "[text][bgzf]") {
    const test::TempDir dir;
    // Rows, then a comment of 200,000 bytes (more than the room kept before a block for the
    // line before it) across the first block's end (64 members, the most that 4 MiB holds),
    // then rows again, over more blocks than a batch of two threads takes.
    std::string text = table(340'000);
    const std::size_t comment = text.size();
    text += "# " + std::string(200'000, 'c') + "\n";
    REQUIRE(comment < 64 * io::detail::kBgzfTextBytes);
    REQUIRE(text.size() > 64 * io::detail::kBgzfTextBytes);
    const std::string rest = table(460'000);
    text += rest.substr(rest.find('\n') + 1);
    text.pop_back();  // the last line without its '\n'
    REQUIRE(text.size() > (std::size_t{9} << 20));
    const std::string plain = dir.file("t.csv");
    const std::string packed = dir.file("t.csv.gz");
    test::write_file(plain, text);
    test::write_file(packed, bgzf_of(text) + std::string(io::detail::bgzf_end()));
    const SpikeTrains expected = io::read_spikes(plain);
    const SpikeTrains read = io::read_spikes(packed);
    REQUIRE(read.num_spikes() == 800'000);
    CHECK(std::equal(read.times().begin(), read.times().end(), expected.times().begin(), expected.times().end()));
    CHECK(std::equal(read.neurons().begin(), read.neurons().end(), expected.neurons().begin(), expected.neurons().end()));

    const std::string long_line = dir.file("long.csv.gz");
    test::write_file(long_line, bgzf_of(table(1000) + std::string(5 << 20, '7') + "\n") + std::string(io::detail::bgzf_end()));
    CHECK_THROWS_WITH(io::read_spikes(long_line), test::contains(long_line + " line 1002: longer than 4 MiB"));
}

TEST_CASE("BGZF of the end-of-file member alone holds no spikes; data after it is ignored, as gzip readers do", "[text][bgzf]") {
    const test::TempDir dir;
    const std::string empty = dir.file("empty.csv.gz");
    test::write_file(empty, std::string(io::detail::bgzf_end()));
    CHECK_THROWS_WITH(io::read_spikes(empty), test::contains(empty) && test::contains("no spikes"));
    const std::string trailing = dir.file("trailing.csv.gz");
    test::write_file(trailing, bgzf_of(table(1000)) + std::string(io::detail::bgzf_end()) + "junk after the end\n");
    CHECK(io::read_spikes(trailing).num_spikes() == 1000);
}

TEST_CASE("BGZF then a plain gzip member reads as one text", "[text][bgzf]") {
    const test::TempDir dir;
    const std::string first = table(50'000);
    std::string second;
    for (int r = 0; r < 1000; ++r) second += "99," + std::to_string(100 + r) + "\n";
    const std::string tail = dir.file("tail.gz");
    test::write_gzip(tail, second);
    const std::string path = dir.file("joined.csv.gz");
    test::write_file(path, bgzf_of(first) + std::string(io::detail::bgzf_end()) + test::read_file(tail));
    const SpikeTrains trains = io::read_spikes(path);
    CHECK(trains.num_spikes() == 51'000);
    CHECK(trains.span().end > 100'000'000);  // the last row, 1099 s, in µs
}

TEST_CASE("a damaged or cut BGZF file is refused, naming the file", "[text][bgzf][bad-input]") {
    const test::TempDir dir;
    // Damage past the first 4 MiB of text, which the format's detection reads as a stream.
    const std::string bytes = bgzf_of(table(600'000)) + std::string(io::detail::bgzf_end());
    const std::vector<std::size_t> members = members_of(bytes);
    REQUIRE(members.size() > 100);
    const std::size_t late = members.size() - 10;
    const std::string path = dir.file("bad.csv.gz");
    SECTION("a byte changed in a member's data") {
        std::string damaged = bytes;
        damaged[members[late] + 40] = static_cast<char>(damaged[members[late] + 40] ^ 0x5a);
        test::write_file(path, damaged);
        CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path) && test::contains("BGZF member at byte " + std::to_string(members[late])));
    }
    SECTION("a changed CRC-32") {
        std::string damaged = bytes;
        damaged[members[late + 1] - 8] = static_cast<char>(damaged[members[late + 1] - 8] ^ 1);
        test::write_file(path, damaged);
        CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path) && test::contains("CRC-32"));
    }
    SECTION("cut between members: no end-of-file marker") {
        test::write_file(path, bytes.substr(0, members[late]));
        CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path) && test::contains("truncated"));
    }
    SECTION("cut within a member") {
        test::write_file(path, bytes.substr(0, members[late] + 100));
        CHECK_THROWS_WITH(io::read_spikes(path), test::contains(path) && test::contains("truncated"));
    }
}
