// Writer for the text formats: CSV (`unit,time_s` header) and two-column whitespace text.
// Times are written as exact decimals of the tick, so that reading the file back gives
// the same ticks; comment lines carry the tick and the neurons that never fired.
#include "bgzf.hpp"
#include "plain_threads.hpp"
#include "recording.hpp"
#include "writers.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"
#include "spikeminer/core/label_indexer.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace spikeminer::io::detail {
namespace {

// A label that would read back as something else is refused rather than written.
void check_label(const std::string& label, char delimiter, const std::string& name) {
    const bool csv = delimiter == ',';
    const bool breaks_field = csv ? label.find(',') != std::string::npos || label.front() == ' ' || label.back() == ' '
                                  : label.find_first_of(" \t") != std::string::npos;
    if (label.empty() || breaks_field || label.find_first_of("\n\r\"") != std::string::npos || label.front() == '#' ||
        label.front() == '%') {
        throw Error(name + ": neuron label " + in_quotes(label) + " cannot be written in " +
                    (csv ? "CSV (no commas, quotes, line breaks, leading '#' or surrounding spaces)"
                         : "the text format (no spaces, tabs, quotes, line breaks or leading '#')") +
                    "; write the spikeminer HDF5 format (.h5) instead");
    }
}

// A file written through stdio, with errors reported once.
class TextSink {
public:
    TextSink(const std::string& path, const std::string& name) : name_(name), file_(std::fopen(path.c_str(), "wb")) {
        if (file_ == nullptr) throw Error(name_ + ": cannot be created");
    }
    ~TextSink() {
        if (file_ != nullptr) std::fclose(file_);
    }
    TextSink(const TextSink&) = delete;
    TextSink& operator=(const TextSink&) = delete;

    void write(const std::string& text) {
        if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) throw Error(name_ + ": write failed (disk full?)");
    }
    void close() {
        const bool ok = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!ok) throw Error(name_ + ": write failed on close (disk full?)");
    }

private:
    std::string name_;
    std::FILE* file_;
};

// Spikes formatted (and compressed) by each thread at a time: about 0.8 MB of text.
constexpr std::size_t kSpikesAPiece = std::size_t{1} << 16;
// zlib's default: gzip's own.
constexpr int kGzipLevel = 6;

}  // namespace

void write_delimited_text(const std::string& path, const std::string& name, const SpikeTrains& trains,
                          char delimiter, bool compress) {
    TextSink sink(path, name);
    const std::int64_t ticks_per_second = trains.time_base().ticks_per_second;
    std::string head = std::string(kWriterLine) + "; tick " + trains.time_base().describe() +
                       "; ticks_per_second=" + std::to_string(ticks_per_second) + "\n";
    // The neuron list keeps what the table alone cannot: neurons that never fire, and the
    // order of named (non-numeric) labels, which readers otherwise take from first spikes.
    bool list_neurons = false;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        check_label(trains.label(n), delimiter, name);
        list_neurons = list_neurons || trains.spike_count(n) == 0 || canonical_integer_label(trains.label(n)).empty();
    }
    for (NeuronId n = 0; list_neurons && n < trains.num_neurons(); ++n) head += "# neuron: " + trains.label(n) + "\n";
    if (delimiter == ',') head += "unit,time_s\n";
    // The rows a batch of pieces at a time, each piece formatted (and compressed as BGZF
    // members, gzip that any reader reads and this one inflates in parallel) by a thread,
    // written in order.
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    const std::size_t pieces = std::max<std::size_t>((times.size() + kSpikesAPiece - 1) / kSpikesAPiece, 1);
    const std::size_t threads = plain_thread_count();
    const std::size_t batch = 2 * threads;
    for (std::size_t first = 0; first < pieces; first += batch) {
        std::vector<std::string> out(std::min(batch, pieces - first));
        on_plain_threads(out.size(), threads, [&](std::size_t p) {
            const std::size_t piece = first + p;
            std::string text = piece == 0 ? head : std::string();
            for (std::size_t i = piece * kSpikesAPiece; i < std::min(times.size(), (piece + 1) * kSpikesAPiece); ++i) {
                text += trains.label(neurons[i]);
                text += delimiter;
                text += format_ticks(times[i], trains.time_base(), "s");
                text += '\n';
            }
            if (compress) append_bgzf(text, kGzipLevel, out[p]);
            else out[p] = std::move(text);
        });
        check_write_cancelled();
        for (const std::string& text : out) sink.write(text);
    }
    if (compress) sink.write(std::string(bgzf_end()));
    sink.close();
}

}  // namespace spikeminer::io::detail
