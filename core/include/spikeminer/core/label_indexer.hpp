#pragma once

#include "spikeminer/core/spike_trains.hpp"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spikeminer {

/// Gives dense neuron ids to labels as a reader meets them, then orders the ids:
/// when every label is an integer the ids follow numeric order (so that unit 3 comes
/// before unit 12), otherwise they follow first appearance in the file.
class LabelIndexer {
public:
    /// The provisional id of this label (first appearance order).
    NeuronId intern(std::string_view label);

    /// Number of labels seen so far.
    [[nodiscard]] std::size_t size() const { return labels_.size(); }
    /// The labels so far, by provisional id.
    [[nodiscard]] const std::vector<std::string>& labels() const { return labels_; }

    /// Final labels and, for each provisional id, its final id.
    struct Result {
        std::vector<std::string> labels;
        std::vector<NeuronId> remap;
    };
    [[nodiscard]] Result finish() const;

private:
    std::unordered_map<std::string, NeuronId> ids_;
    std::vector<std::string> labels_;
};

/// Canonical label for a numeric id read as text: "7", "7.0" and "7e0" all give "7".
/// Returns an empty string when the text is not an integer (then the text is the label).
std::string canonical_integer_label(std::string_view text);

}  // namespace spikeminer
