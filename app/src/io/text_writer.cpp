// Writer for the text formats: CSV (`unit,time_s` header) and two-column whitespace text.
// Times are written as exact decimals of the tick, so that reading the file back gives
// the same ticks; comment lines carry the tick and the neurons that never fired.
#include "recording.hpp"
#include "writers.hpp"

#include "spikeminer/app/io/atomic_output.hpp"
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/in_quotes.hpp"
#include "spikeminer/core/label_indexer.hpp"

#include <zlib.h>

#include <cstdio>
#include <string>

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

// Output through zlib (compressed) or stdio (plain), with errors reported once.
class TextSink {
public:
    TextSink(const std::string& path, const std::string& name, bool compress) : name_(name), compress_(compress) {
        if (compress_) {
            gz_ = gzopen(path.c_str(), "wb6");
            if (gz_ == nullptr) throw Error(name_ + ": cannot be created");
        } else {
            plain_ = std::fopen(path.c_str(), "wb");
            if (plain_ == nullptr) throw Error(name_ + ": cannot be created");
        }
    }
    ~TextSink() {
        if (gz_ != nullptr) gzclose_w(gz_);
        if (plain_ != nullptr) std::fclose(plain_);
    }
    TextSink(const TextSink&) = delete;
    TextSink& operator=(const TextSink&) = delete;

    void write(const std::string& text) {
        const bool ok = compress_ ? gzwrite(gz_, text.data(), static_cast<unsigned>(text.size())) ==
                                        static_cast<int>(text.size())
                                  : std::fwrite(text.data(), 1, text.size(), plain_) == text.size();
        if (!ok && !text.empty()) throw Error(name_ + ": write failed (disk full?)");
    }
    void close() {
        const bool ok = compress_ ? gzclose_w(gz_) == Z_OK : std::fclose(plain_) == 0;
        gz_ = nullptr;
        plain_ = nullptr;
        if (!ok) throw Error(name_ + ": write failed on close (disk full?)");
    }

private:
    std::string name_;
    bool compress_;
    gzFile gz_ = nullptr;
    std::FILE* plain_ = nullptr;
};

}  // namespace

void write_delimited_text(const std::string& path, const std::string& name, const SpikeTrains& trains,
                          char delimiter, bool compress) {
    TextSink sink(path, name, compress);
    const std::int64_t ticks_per_second = trains.time_base().ticks_per_second;
    std::string out = std::string(kWriterLine) + "; tick " + trains.time_base().describe() +
                      "; ticks_per_second=" + std::to_string(ticks_per_second) + "\n";
    // The neuron list keeps what the table alone cannot: neurons that never fire, and the
    // order of named (non-numeric) labels, which readers otherwise take from first spikes.
    bool list_neurons = false;
    for (NeuronId n = 0; n < trains.num_neurons(); ++n) {
        check_label(trains.label(n), delimiter, name);
        list_neurons = list_neurons || trains.spike_count(n) == 0 || canonical_integer_label(trains.label(n)).empty();
    }
    for (NeuronId n = 0; list_neurons && n < trains.num_neurons(); ++n) out += "# neuron: " + trains.label(n) + "\n";
    if (delimiter == ',') out += "unit,time_s\n";
    const auto times = trains.times();
    const auto neurons = trains.neurons();
    for (std::size_t i = 0; i < times.size(); ++i) {
        out += trains.label(neurons[i]);
        out += delimiter;
        out += format_ticks(times[i], trains.time_base(), "s");
        out += '\n';
        if (out.size() > (std::size_t{1} << 20)) {
            check_write_cancelled();
            sink.write(out);
            out.clear();
        }
    }
    sink.write(out);
    sink.close();
}

}  // namespace spikeminer::io::detail
