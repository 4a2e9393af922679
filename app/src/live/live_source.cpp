// The text every live source may carry, and the sources read from a file descriptor:
// standard input and a followed file.
#include "spikeminer/app/live/live_source.hpp"

#include "../io/spike_table_head.hpp"
#include "../io/spike_table_rows.hpp"
#include "zmq_source.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spikeminer::live {
namespace {

// A line of a spike table is a few dozen bytes; one this long is something else.
constexpr std::size_t kLongestLine = std::size_t{1} << 20;

}  // namespace

struct LiveSource::Text {
    explicit Text(LabelIndexer& labels) : units(labels) {}
    io::detail::UnitIds units;
    bool tick_given = false;
    std::optional<io::detail::Columns> columns;  // known from the first line that is not a comment
    char delimiter = ',';
    std::string partial;  // the text after the last newline
    std::uint64_t lines = 0;
};

LiveSource::LiveSource(std::string name, std::optional<TimeBase> tick)
    : name_(std::move(name)), time_base_(tick.value_or(TimeBase{})), text_(std::make_unique<Text>(labels_)) {
    text_->tick_given = tick.has_value();
}

LiveSource::~LiveSource() = default;

void LiveSource::parse_text(std::string_view bytes, bool end, std::vector<Spike>& out, const std::string& where) {
    Text& t = *text_;
    t.partial.append(bytes);
    const std::size_t last_newline = t.partial.rfind('\n');
    const std::size_t whole = end ? t.partial.size() : (last_newline == std::string::npos ? 0 : last_newline + 1);
    std::string_view rest(t.partial.data(), whole);
    const std::string prefix = name_ + (where.empty() ? "" : " " + where);
    // The comments and the header before the first row, line by line.
    std::string_view line;
    std::vector<std::string_view> fields;
    while (!t.columns) {
        std::string_view at = rest;
        if (!io::detail::next_line(at, line)) break;
        if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
            throw Error(prefix + " line " + std::to_string(t.lines + 1) + ": holds a NUL byte: binary data, not text");
        }
        if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#' || line.front() == '%') {
            if (!t.tick_given) {
                if (const auto tick = io::detail::tick_from_comment(line)) time_base_ = TimeBase{*tick};
            }
            if (line.starts_with(io::detail::kNeuronTag)) labels_.intern(line.substr(io::detail::kNeuronTag.size()));
            ++t.lines;
            rest = at;
            continue;
        }
        t.delimiter = line.find(',') != std::string_view::npos ? ',' : ' ';
        io::detail::split(line, t.delimiter, fields);
        if (fields.size() >= 2 && io::detail::is_number(fields[1])) {
            t.columns = io::detail::Columns{};  // no header: this line is the first row
            break;
        }
        ++t.lines;
        t.columns = io::detail::columns_from_header(fields, prefix + " line " + std::to_string(t.lines));
        rest = at;
    }
    if (t.columns && !rest.empty()) {
        const io::detail::ParsedRows rows = io::detail::parse_rows(rest, t.delimiter, *t.columns, time_base_);
        std::vector<NeuronId> ids;
        for (const auto& label : rows.labels) {
            if (label.from_comment) labels_.intern(label.text);
            else ids.push_back(t.units.of(label.text));
        }
        for (std::size_t i = 0; i < rows.ticks.size(); ++i) out.push_back({rows.ticks[i], ids[rows.units[i]]});
        if (rows.bad_line != 0) throw Error(prefix + " line " + std::to_string(t.lines + rows.bad_line) + rows.failure);
        t.lines += rows.lines;
    }
    t.partial.erase(0, whole);
    if (t.partial.size() > kLongestLine) {
        throw Error(prefix + " line " + std::to_string(t.lines + 1) + ": longer than " + std::to_string(kLongestLine >> 20) +
                    " MiB without an end: not spike lines");
    }
}

void LiveSource::add(std::uint32_t unit, double seconds, std::vector<Spike>& out, const std::string& where) {
    Tick tick = 0;
    try {
        tick = time_base_.from_seconds(seconds);
    } catch (const Error& e) {
        throw Error(name_ + " " + where + ": unit " + std::to_string(unit) + ": " + e.what());
    }
    out.push_back({tick, text_->units.of(std::to_string(unit))});
}

namespace {

constexpr std::size_t kReadBytes = 1 << 16;
constexpr std::chrono::milliseconds kFileRecheck{1};

// Standard input (read until its end) or a file followed as it grows (never ends by itself).
class DescriptorSource final : public LiveSource {
public:
    DescriptorSource(std::string name, int fd, bool follow, std::optional<TimeBase> tick)
        : LiveSource(std::move(name), tick), fd_(fd), follow_(follow) {}
    ~DescriptorSource() override {
        if (follow_) ::close(fd_);
    }
    DescriptorSource(const DescriptorSource&) = delete;
    DescriptorSource& operator=(const DescriptorSource&) = delete;

    bool poll(std::chrono::milliseconds wait, std::vector<Spike>& out) override {
        const auto deadline = std::chrono::steady_clock::now() + wait;
        const std::size_t before = out.size();
        for (;;) {
            if (!follow_) {
                pollfd ready{fd_, POLLIN, 0};
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
                if (::poll(&ready, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0))) <= 0) return true;
            }
            const ssize_t n = ::read(fd_, buffer_, sizeof buffer_);
            if (n < 0 && errno != EINTR && errno != EAGAIN) throw Error(name() + ": cannot be read: " + std::strerror(errno));
            if (n > 0) {
                offset_ += n;
                parse_text(std::string_view(buffer_, static_cast<std::size_t>(n)), false, out);
                if (out.size() - before >= kMostSpikesAPoll || std::chrono::steady_clock::now() >= deadline) return true;
                continue;
            }
            if (n == 0 && !follow_) {
                parse_text({}, true, out);
                return false;
            }
            if (n == 0) check_not_shrunk();
            if (out.size() != before || std::chrono::steady_clock::now() >= deadline) return true;
            std::this_thread::sleep_for(kFileRecheck);
        }
    }

private:
    // A followed file only grows: one rewritten from the start would be read as garbage.
    void check_not_shrunk() const {
        struct stat info {};
        if (::fstat(fd_, &info) == 0 && info.st_size < offset_) {
            throw Error(name() + ": shrank from " + std::to_string(offset_) + " to " + std::to_string(info.st_size) +
                        " bytes while followed: a live file must only grow (appended to)");
        }
    }

    int fd_;
    bool follow_;
    off_t offset_ = 0;
    char buffer_[kReadBytes];
};

}  // namespace

std::unique_ptr<LiveSource> open_source(const std::string& spec, std::optional<TimeBase> tick) {
    if (spec == "-") return std::make_unique<DescriptorSource>("standard input", STDIN_FILENO, false, tick);
    if (spec.find("://") != std::string::npos) return open_zmq_source(spec, tick);
    std::error_code error;
    if (!std::filesystem::is_regular_file(spec, error)) {
        throw UsageError("--source " + in_quotes(spec) + ": no such file (a live file must exist; give - for standard input or "
                         "tcp://HOST:PORT for a ZeroMQ socket)");
    }
    const int fd = ::open(spec.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(spec + ": cannot be read: " + std::strerror(errno));
    return std::make_unique<DescriptorSource>(spec, fd, true, tick);
}

}  // namespace spikeminer::live
