#pragma once
// Text in SVG figures.

#include <string>
#include <string_view>

namespace spikeminer::io::detail {

/// `text` with &, <, >, " and ' written as XML entities, so that any label draws as itself.
inline std::string xml_escaped(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace spikeminer::io::detail
