#include "hdf5_isolated.hpp"

#include "child_process.hpp"
#include "hdf5_probe.hpp"
#include "plain_threads.hpp"

#include "spikeminer/app/io/hdf5_isolation.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace spikeminer::io::detail {
namespace {

std::atomic<bool> reads_isolated{true};

void save(Writer& out, const Recording& r) {
    out.value(r.format);
    out.value(r.time_base.ticks_per_second);
    out.value(r.span.has_value());
    out.value(r.span.value_or(TimeSpan{}));
    out.value(static_cast<int>(r.neuron_out_of_order ? (*r.neuron_out_of_order ? 1 : 0) : -1));
    out.value(static_cast<std::uint64_t>(r.metadata.size()));
    for (const auto& [key, value] : r.metadata) {
        out.text(key);
        out.text(value);
    }
    out.texts(r.neurons.labels);
    out.texts(r.neurons.groups);
    out.values(r.neurons.positions);
    out.value(static_cast<std::uint64_t>(r.neurons.observed.size()));
    for (const auto& spans : r.neurons.observed) out.values(spans);
    out.column(r.spikes.times);
    out.column(r.spikes.neurons);
    out.value(r.truth.has_value());
    if (!r.truth) return;
    const simulator::GroundTruth& t = *r.truth;
    out.value(static_cast<std::uint64_t>(t.chains.size()));
    for (const auto& chain : t.chains) {
        out.values(chain.neurons);
        out.values(chain.strengths);
        out.values(chain.delays);
        out.value(chain.loopback);
    }
    out.value(static_cast<std::uint64_t>(t.assemblies.size()));
    for (const auto& assembly : t.assemblies) {
        out.values(assembly.members);
        out.value(assembly.activation_rate_hz);
        out.value(assembly.jitter);
        out.values(assembly.activation_times);
        out.values(assembly.active);
    }
    out.text(t.config_json);
}

Recording load(Reader& in) {
    Recording r;
    r.format = in.value<SpikeFormat>();
    r.time_base.ticks_per_second = in.value<std::int64_t>();
    const bool has_span = in.value<bool>();
    const auto span = in.value<TimeSpan>();
    if (has_span) r.span = span;
    if (const int order = in.value<int>(); order >= 0) r.neuron_out_of_order = order == 1;
    const auto entries = in.value<std::uint64_t>();
    for (std::uint64_t i = 0; i < entries; ++i) {
        std::string key = in.text();
        r.metadata[key] = in.text();
    }
    r.neurons.labels = in.texts();
    r.neurons.groups = in.texts();
    r.neurons.positions = in.values<Position>();
    r.neurons.observed.resize(in.count(sizeof(std::uint64_t)));
    for (auto& spans : r.neurons.observed) spans = in.values<TimeSpan>();
    const auto times = in.column<Tick>();
    r.spikes = SpikeColumns{times, in.column<NeuronId>(), in.mapping()};
    if (!in.value<bool>()) return r;
    simulator::GroundTruth& t = r.truth.emplace();
    t.chains.resize(in.count(sizeof(std::uint64_t)));
    for (auto& chain : t.chains) {
        chain.neurons = in.values<NeuronId>();
        chain.strengths = in.values<double>();
        chain.delays = in.values<TimeSpan>();
        chain.loopback = in.value<bool>();
    }
    t.assemblies.resize(in.count(sizeof(std::uint64_t)));
    for (auto& assembly : t.assemblies) {
        assembly.members = in.values<NeuronId>();
        assembly.activation_rate_hz = in.value<double>();
        assembly.jitter = in.value<Tick>();
        assembly.activation_times = in.values<Tick>();
        assembly.active = in.values<TimeSpan>();
    }
    t.config_json = in.text();
    return r;
}

}  // namespace

void write_at_in_parallel(int fd, const void* data, std::size_t size, std::size_t offset) {
    constexpr std::size_t kSlice = std::size_t{32} << 20;
    const std::size_t slices = std::max<std::size_t>(1, std::min<std::size_t>(size / kSlice, std::min<std::size_t>(plain_thread_count(), 64)));
    std::atomic<bool> failed{false};
    const auto write_slice = [&](std::size_t s) {
        const std::size_t first = size * s / slices, last = size * (s + 1) / slices;
        for (std::size_t at = first; at < last && !failed;) {
            const ssize_t done = pwrite(fd, static_cast<const char*>(data) + at, last - at, static_cast<off_t>(offset + at));
            if (done <= 0) failed = true;
            else at += static_cast<std::size_t>(done);
        }
    };
    on_plain_threads(slices, slices, write_slice);  // this runs in the forked reading process
    if (failed) throw Error("cannot hand the recording back from the reading process");
}

}  // namespace spikeminer::io::detail

namespace spikeminer::io {
void set_hdf5_reads_isolated(bool isolated) { detail::reads_isolated = isolated; }
}  // namespace spikeminer::io

namespace spikeminer::io::detail {

void run_isolated(const std::string& path, const std::function<void(Writer&)>& produce,
                  const std::function<void(Reader&)>& consume, const Progress* progress) {
    int fd = memfd_create("spikeminer-read", MFD_CLOEXEC);
    if (fd < 0) {  // no in-memory files: an unnamed temporary one
        std::FILE* file = std::tmpfile();
        if (file == nullptr) throw Error(path + ": no temporary file to read it through");
        fd = dup(fileno(file));
        std::fclose(file);
    }
    struct Closer {
        int fd;
        ~Closer() { close(fd); }
    } closer{fd};
    const std::chrono::seconds walk_limit = structure_walk_limit(path);
    // In the child, a structure walk still running at `walk_limit`, or a read at ten times
    // that, ends it by SIGALRM: the library can loop on damaged data too.
    const auto write = [&](bool in_child) {
        Writer out(fd);
        try {
            out.value('R');
            if (in_child) alarm(static_cast<unsigned>(walk_limit.count()));
            walk_hdf5_structure(path);
            out.flush();  // the file is empty until the walk has finished
            if (in_child) alarm(static_cast<unsigned>(10 * walk_limit.count()));
            produce(out);
        } catch (const Error& error) {
            out.restart();
            out.value('E');
            out.text(error.what());
        }
        if (in_child) alarm(0);
        out.flush();
    };
    ChildEnd end = reads_isolated ? run_in_child([&] { write(true); }, progress) : ChildEnd{};
    // A child out of time before its structure walk ended is started once more: one forked
    // while another thread held a lock of the C library or of a sanitizer (the GUI's event
    // loop beside its reading thread) can wait on it for ever. A damaged file that loops
    // loops again.
    struct stat walked {};
    if (end.kind == ChildEnd::Kind::Crashed && end.code == SIGALRM && fstat(fd, &walked) == 0 && walked.st_size == 0) {
        if (lseek(fd, 0, SEEK_SET) != 0) throw Error(crash_message(path, end, walk_limit));
        end = run_in_child([&] { write(true); }, progress);
    }
    if (end.kind == ChildEnd::Kind::NotStarted) {
        write(false);  // no child to spare, or the fuzzers: read here
    } else if (end.kind != ChildEnd::Kind::Finished) {
        throw Error(crash_message(path, end, walk_limit));
    }
    struct stat status {};
    if (fstat(fd, &status) != 0 || status.st_size <= 0) throw Error(path + ": the reading process handed nothing back");
    const auto size = static_cast<std::size_t>(status.st_size);
    void* mapped = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) throw Error(path + ": what the reading process handed back cannot be mapped");
    // Kept mapped for as long as a column read from it is in use (the spike trains'
    // stream); the file itself goes with the mapping.
    const std::shared_ptr<const void> mapping(mapped, [size](const void* at) { munmap(const_cast<void*>(at), size); });
    Reader in(static_cast<const char*>(mapped), size, mapping);
    if (in.value<char>() == 'E') throw Error(in.text());
    consume(in);
}

Recording read_isolated(const std::string& path, const std::function<Recording()>& read, Progress* progress) {
    if (progress != nullptr) progress->begin("reading " + path, 0);
    Recording recording;
    run_isolated(path, [&](Writer& out) { save(out, read()); }, [&](Reader& in) { recording = load(in); }, progress);
    if (progress != nullptr) progress->finish();
    return recording;
}

}  // namespace spikeminer::io::detail
