#pragma once
// Where a live session's spikes come from: a file that is still growing (followed as
// `tail -f` follows it), standard input, or a ZeroMQ SUB socket.
//
// Text (files, standard input, and ZeroMQ messages that do not start with the binary
// tag): the lines of a spike table as `spikeminer run` reads it, `unit,time_s` or
// `unit time_s`, a header naming the columns allowed first, `#` comments skipped (the
// writer's `# neuron: ` comments declare units, its `ticks_per_second=` comment the tick).
// Binary ZeroMQ messages: the four bytes "SMB1", then records of 12 bytes, a unit number
// (uint32) and a time in seconds (float64), both little-endian. A ZeroMQ message that is
// empty or reads `end` ends the stream.

#include "spikeminer/core/label_indexer.hpp"
#include "spikeminer/core/spike_trains.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spikeminer::live {

/// The tag that starts a binary ZeroMQ message.
inline constexpr std::string_view kBinaryTag = "SMB1";

/// A poll returns with about this many spikes at most, also while more keep coming (a fast
/// source), so that windows are decided and Ctrl-C is seen between polls.
inline constexpr std::size_t kMostSpikesAPoll = std::size_t{1} << 16;

class LiveSource {
public:
    virtual ~LiveSource();
    /// Waits at most `wait` for spikes and appends those that came to `out`, each with its
    /// unit's provisional id (labels()). Returns false once the source has ended (its last
    /// spikes appended). Throws Error naming the source and the line of a malformed spike.
    virtual bool poll(std::chrono::milliseconds wait, std::vector<Spike>& out) = 0;
    /// "FILE", "standard input" or the endpoint.
    [[nodiscard]] const std::string& name() const { return name_; }
    /// The units met so far, in order of first appearance (declared ones included).
    [[nodiscard]] const LabelIndexer& labels() const { return labels_; }
    /// The tick of the times: the one given, else one a comment stated before the first
    /// spike, else 1 µs.
    [[nodiscard]] const TimeBase& time_base() const { return time_base_; }

protected:
    LiveSource(std::string name, std::optional<TimeBase> tick);
    /// Parses text: complete lines of `bytes` now, what follows the last newline once more
    /// comes (or at `end`). `where` names the message of a socket ("message 3").
    void parse_text(std::string_view bytes, bool end, std::vector<Spike>& out, const std::string& where = {});
    /// Adds a spike of the unit numbered `unit`.
    void add(std::uint32_t unit, double seconds, std::vector<Spike>& out, const std::string& where);

private:
    std::string name_;
    LabelIndexer labels_;
    TimeBase time_base_;
    struct Text;  // the text's columns, its unit tokens and the line it ended in
    std::unique_ptr<Text> text_;
};

/// The source `spec` names: "-" standard input; one with "://" (tcp://, ipc://) a ZeroMQ
/// SUB socket connected to that endpoint; otherwise a file followed as it grows (it must
/// exist). `tick` (--tick): the times' tick. Throws UsageError for a file that does not
/// exist, Error for a socket that cannot connect.
std::unique_ptr<LiveSource> open_source(const std::string& spec, std::optional<TimeBase> tick);

}  // namespace spikeminer::live
