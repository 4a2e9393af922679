// The text of every JSON document the program writes, files and standard output alike.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace spikeminer::io {

/// JSON holds UTF-8 only, while labels come from the user's files as bytes (Latin-1
/// labels, say): a byte that is not part of valid UTF-8 is written as U+FFFD, the
/// replacement character, rather than failing the whole output (nlohmann's dump throws).
/// The HDF5, CSV and text outputs keep the bytes as they are.
inline std::string json_text(const nlohmann::json& value, int indent) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace spikeminer::io
