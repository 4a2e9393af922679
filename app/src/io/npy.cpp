// See npy.hpp. The header is parsed as far as NumPy writes it: 'descr' (a type string
// such as '<i8'), 'fortran_order' (True or False) and 'shape' (a tuple of integers).
#include "npy.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <bit>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>

namespace spikeminer::io::detail {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kLongestHeader = 1 << 20;

// The text after `key`'s colon in the header dict, up to the end of the header.
std::string_view value_of(std::string_view header, std::string_view key, const std::string& where) {
    for (const char quote : {'\'', '"'}) {
        const std::string quoted = std::string(1, quote) + std::string(key) + std::string(1, quote);
        const auto at = header.find(quoted);
        if (at == std::string_view::npos) continue;
        const auto colon = header.find(':', at + quoted.size());
        if (colon == std::string_view::npos) break;
        std::string_view value = header.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return value;
    }
    throw Error(where + ": the header names no '" + std::string(key) + "' (not an array NumPy wrote?)");
}

struct Layout {
    char order = '<';  // '<' little, '>' big endian ('|': one byte)
    char kind = 'i';   // i, u or f
    std::size_t bytes = 8;
    std::vector<std::uint64_t> shape;
    bool fortran = false;
};

Layout parse_header(std::string_view header, const std::string& where) {
    Layout layout;
    std::string_view descr = value_of(header, "descr", where);
    if (descr.empty() || (descr.front() != '\'' && descr.front() != '"')) {
        throw Error(where + ": element type " + in_quotes(descr.substr(0, 20)) + " is a structured type; a column of numbers is expected");
    }
    const auto end = descr.find(descr.front(), 1);
    if (end == std::string_view::npos) throw Error(where + ": the header's 'descr' is not closed");
    const std::string_view type = descr.substr(1, end - 1);
    const auto bytes_ok = [&](std::string_view digits) {
        std::size_t n = 0;
        const auto [stop, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        return ec == std::errc{} && stop == digits.data() + digits.size() ? n : std::size_t{0};
    };
    if (type.size() >= 3) {
        layout.order = type[0];
        layout.kind = type[1];
        layout.bytes = bytes_ok(type.substr(2));
    }
    const bool integer = (layout.kind == 'i' || layout.kind == 'u') && (layout.bytes == 1 || layout.bytes == 2 || layout.bytes == 4 || layout.bytes == 8);
    const bool real = layout.kind == 'f' && (layout.bytes == 4 || layout.bytes == 8);
    const bool order = layout.order == '<' || layout.order == '>' || layout.order == '|' || layout.order == '=';
    if (type.size() < 3 || !order || !(integer || real)) {
        throw Error(where + ": element type " + in_quotes(type) + " is not an integer (i1-i8, u1-u8) or a float (f4, f8)");
    }
    if (layout.order == '=') layout.order = std::endian::native == std::endian::little ? '<' : '>';
    layout.fortran = value_of(header, "fortran_order", where).starts_with("True");
    std::string_view shape = value_of(header, "shape", where);
    if (shape.empty() || shape.front() != '(') throw Error(where + ": the header's 'shape' is not a tuple");
    shape.remove_prefix(1);
    for (;;) {
        while (!shape.empty() && (shape.front() == ' ' || shape.front() == ',')) shape.remove_prefix(1);
        if (shape.empty()) throw Error(where + ": the header's 'shape' is not closed");
        if (shape.front() == ')') break;
        std::uint64_t n = 0;
        const auto [stop, ec] = std::from_chars(shape.data(), shape.data() + shape.size(), n);
        if (ec != std::errc{}) throw Error(where + ": the header's 'shape' holds " + in_quotes(shape.substr(0, 20)) + ", not a length");
        layout.shape.push_back(n);
        shape.remove_prefix(static_cast<std::size_t>(stop - shape.data()));
    }
    const std::size_t dims = layout.shape.size();
    if (dims == 0 || dims > 2 || (dims == 2 && layout.shape[0] != 1 && layout.shape[1] != 1)) {
        std::string text;
        for (const std::uint64_t n : layout.shape) text += (text.empty() ? "" : ", ") + std::to_string(n);
        throw Error(where + ": an array of shape (" + text + "); one column of values, (N,) or (N, 1), is expected");
    }
    return layout;
}

template <typename T>
T from_bytes(const unsigned char* at, bool swap) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, at, sizeof(T));
    if (swap) {
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    }
    T value;
    std::memcpy(&value, raw, sizeof(T));
    return value;
}

}  // namespace

NpyColumn read_npy_column(const std::string& path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) throw Error(path + ": cannot be opened");
    const auto file_size = static_cast<std::uint64_t>(file.tellg());
    file.seekg(0);
    char start[12] = {};
    file.read(start, sizeof start);
    if (file.gcount() < 10 || std::string_view(start, kMagic.size()) != kMagic) throw Error(path + ": not a NumPy .npy file (no \\x93NUMPY magic)");
    const auto major = static_cast<unsigned char>(start[6]);
    if (major < 1 || major > 3) throw Error(path + ": .npy format version " + std::to_string(major) + "; versions 1 to 3 are read");
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    std::uint64_t header_length = 0;
    for (std::size_t i = 0; i < length_bytes; ++i) header_length |= static_cast<std::uint64_t>(static_cast<unsigned char>(start[8 + i])) << (8 * i);
    const std::uint64_t data_start = 8 + length_bytes + header_length;
    if (header_length > kLongestHeader || data_start > file_size) throw Error(path + ": the .npy header claims " + std::to_string(header_length) + " bytes, past the file's end");
    std::string header(header_length, '\0');
    file.seekg(static_cast<std::streamoff>(8 + length_bytes));
    file.read(header.data(), static_cast<std::streamsize>(header_length));
    const Layout layout = parse_header(header, path);
    std::uint64_t count = 1;
    for (const std::uint64_t n : layout.shape) {
        if (n != 0 && count > std::numeric_limits<std::uint64_t>::max() / n) throw Error(path + ": the shape's element count overflows");
        count *= n;
    }
    const std::uint64_t available = (file_size - data_start) / layout.bytes;
    if (count > available) {
        throw Error(path + ": the shape claims " + std::to_string(count) + " values but the file holds " + std::to_string(available) +
                    " (truncated?)");
    }
    std::vector<unsigned char> data(count * layout.bytes);
    file.seekg(static_cast<std::streamoff>(data_start));
    file.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (static_cast<std::uint64_t>(file.gcount()) != data.size()) throw Error(path + ": the data could not be read whole");
    const bool swap = layout.bytes > 1 && (layout.order == '>') == (std::endian::native == std::endian::little);
    NpyColumn column;
    column.floating = layout.kind == 'f';
    (column.floating ? column.reals.reserve(count) : column.integers.reserve(count));
    for (std::uint64_t i = 0; i < count; ++i) {
        const unsigned char* at = data.data() + i * layout.bytes;
        if (column.floating) {
            column.reals.push_back(layout.bytes == 4 ? static_cast<double>(from_bytes<float>(at, swap)) : from_bytes<double>(at, swap));
            continue;
        }
        std::int64_t value = 0;
        switch (layout.bytes) {
            // Each branch widened alone: int32 against uint32 would meet as uint32.
            case 1: value = layout.kind == 'i' ? std::int64_t{from_bytes<std::int8_t>(at, false)} : std::int64_t{from_bytes<std::uint8_t>(at, false)}; break;
            case 2: value = layout.kind == 'i' ? std::int64_t{from_bytes<std::int16_t>(at, swap)} : std::int64_t{from_bytes<std::uint16_t>(at, swap)}; break;
            case 4: value = layout.kind == 'i' ? std::int64_t{from_bytes<std::int32_t>(at, swap)} : std::int64_t{from_bytes<std::uint32_t>(at, swap)}; break;
            default: {
                if (layout.kind == 'i') {
                    value = from_bytes<std::int64_t>(at, swap);
                } else {
                    const auto u = from_bytes<std::uint64_t>(at, swap);
                    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                        throw Error(path + ": element " + std::to_string(i) + " is " + std::to_string(u) + ", past 2^63 - 1");
                    }
                    value = static_cast<std::int64_t>(u);
                }
            }
        }
        column.integers.push_back(value);
    }
    return column;
}

}  // namespace spikeminer::io::detail
