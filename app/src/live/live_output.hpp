#pragma once
// What a live session writes as it goes, into its folder and to its ZeroMQ PUB socket.
// Files are valid at every moment: the tables of decided windows and of activations grow
// by whole lines, one write a step; the others are replaced whole (written under a
// temporary name and renamed).
//
// Messages on the PUB socket (one ZeroMQ message each: a topic word, a space, a JSON
// object; subscribe to a topic to receive only it):
//   window {"index", "start_s", "end_s", "edges", "cliques": [[labels]], "wait_ms"}
//   activation {"assembly", "members": [labels], "time_s", "completed_s", "firing", "wait_ms"}
//   assemblies {"until_s", "assemblies": [{"id", "members", "start_s", "end_s", "activations"}]}
//   end {"reason"}
// wait_ms: from the arrival of the spike that let it be told to the message sent.

#include "live_activations.hpp"
#include "live_windows.hpp"
#include "zmq_socket.hpp"

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace spikeminer::live {

/// What status.json says of the session.
struct LiveStatus {
    std::string source;
    std::string state;                 ///< "warming up", "live", "ended: ..."
    std::size_t spikes = 0;            ///< taken (late ones left out)
    std::size_t units = 0;
    std::size_t late = 0;              ///< spikes that came after their time was settled, left out
    double received_s = 0;             ///< the latest spike time
    double decided_s = 0;              ///< where the decided windows end
    std::size_t windows = 0;           ///< decided
    std::size_t skipped = 0;           ///< left to the end by a coarser step while behind
    std::size_t stride = 1;
    std::size_t activations = 0;
    std::size_t refreshes = 0;
    double refreshed_s = 0;            ///< the stretch the latest assemblies cover
    std::vector<std::string> notes;
};

class LiveOutput {
public:
    /// Makes the folder `dir` (new or empty) and, with `publish`, binds a PUB socket there.
    LiveOutput(const std::string& dir, const std::string& publish);
    ~LiveOutput();
    LiveOutput(const LiveOutput&) = delete;
    LiveOutput& operator=(const LiveOutput&) = delete;

    [[nodiscard]] const std::string& dir() const { return dir_; }
    /// settings.json: the session's settings, as `spikeminer run --config` takes them.
    void settings(const std::string& json);
    /// Rows of live-windows.csv and "window" messages for newly decided windows (from the
    /// thread that counts them; the other calls come from the session's).
    void windows(const std::vector<DecidedWindow>& decided, const std::vector<std::string>& labels, const TimeBase& time_base, double wait_ms);
    /// Rows of activations.csv and "activation" messages; `members`: each assembly id's
    /// member labels.
    void activations(const std::vector<LiveActivation>& found, const std::vector<std::vector<std::string>>& members, const TimeBase& time_base,
                     double wait_ms);
    /// The latest assemblies (assemblies.csv, windows.csv, episodes.csv) and an
    /// "assemblies" message.
    void assemblies(const SpikeTrains& trains, const pipeline::PipelineResult& result);
    void status(const LiveStatus& status);
    /// The "end" message.
    void end(const std::string& reason);

private:
    void publish(const std::string& topic, const std::string& json);
    void append(int fd, const std::string& rows, const char* name) const;

    std::string dir_;
    std::unique_ptr<ZmqSocket> pub_;
    std::mutex publishing_;  // the socket is used by one thread at a time
    int windows_ = -1;      // live-windows.csv, appended to
    int activations_ = -1;  // activations.csv
};

}  // namespace spikeminer::live
