// A live source on a ZeroMQ SUB socket: text or binary messages (live_source.hpp).
#include "zmq_source.hpp"

#include "zmq_socket.hpp"

#include "spikeminer/core/error.hpp"

#include <cstring>

namespace spikeminer::live {
namespace {

constexpr std::size_t kRecordBytes = 12;  // uint32 unit, float64 seconds


class ZmqSource final : public LiveSource {
public:
    ZmqSource(const std::string& endpoint, std::optional<TimeBase> tick) : LiveSource(endpoint, tick), socket_(ZmqSocket::Kind::Sub) {
        socket_.subscribe_all();
        socket_.connect(endpoint);
    }

    bool poll(std::chrono::milliseconds wait, std::vector<Spike>& out) override {
        std::chrono::milliseconds next_wait = wait;
        const std::size_t before = out.size();
        // The messages waiting (about kMostSpikesAPoll spikes at most), the first one waited for.
        while (out.size() - before < kMostSpikesAPoll) {
            const std::optional<std::string> message = socket_.receive(next_wait);
            if (!message) break;
            next_wait = std::chrono::milliseconds{0};
            ++messages_;
            const std::string where = "message " + std::to_string(messages_);
            if (message->empty() || *message == "end" || *message == "end\n") return false;
            if (message->starts_with(kBinaryTag)) {
                read_binary(std::string_view(*message).substr(kBinaryTag.size()), out, where);
            } else {
                parse_text(*message, true, out, where);
            }
        }
        return true;
    }

private:
    void read_binary(std::string_view records, std::vector<Spike>& out, const std::string& where) {
        if (records.size() % kRecordBytes != 0) {
            throw Error(name() + " " + where + ": " + std::to_string(records.size()) + " bytes after the tag " +
                        "are not whole records of 12 bytes (uint32 unit, float64 seconds)");
        }
        for (std::size_t at = 0; at < records.size(); at += kRecordBytes) {
            unsigned char bytes[kRecordBytes];
            std::memcpy(bytes, records.data() + at, kRecordBytes);
            std::uint32_t unit = 0;
            std::uint64_t bits = 0;
            for (int i = 3; i >= 0; --i) unit = (unit << 8) | bytes[i];
            for (int i = 11; i >= 4; --i) bits = (bits << 8) | bytes[i];
            double seconds = 0;
            std::memcpy(&seconds, &bits, sizeof seconds);
            add(unit, seconds, out, where + " record " + std::to_string(at / kRecordBytes + 1));
        }
    }

    ZmqSocket socket_;
    std::uint64_t messages_ = 0;
};

}  // namespace

std::unique_ptr<LiveSource> open_zmq_source(const std::string& endpoint, std::optional<TimeBase> tick) {
    return std::make_unique<ZmqSource>(endpoint, tick);
}

}  // namespace spikeminer::live
