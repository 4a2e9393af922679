#include "spikeminer/core/in_quotes.hpp"

#include <cstdio>

namespace spikeminer {

std::string in_quotes(std::string_view text) {
    constexpr std::size_t kShown = 60;
    std::string out = "'";
    for (const char c : text.substr(0, kShown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    if (text.size() > kShown) return out + "...' (" + std::to_string(text.size()) + " bytes)";
    return out + "'";
}

std::string shown(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

}  // namespace spikeminer
