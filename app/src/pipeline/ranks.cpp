// The pipeline's work over the processes of an MPI launch (ranks.hpp): a batch's
// recordings handed out by rank 0, or one recording's windows in a block per rank.
// Without MPI, one process does it all.
#include "spikeminer/app/pipeline/ranks.hpp"

#include "batch_parts.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#ifdef SPIKEMINER_HAVE_MPI
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <thread>
#include <type_traits>
#endif

namespace spikeminer::pipeline {

#ifdef SPIKEMINER_HAVE_MPI
namespace {

constexpr int kWork = 1;     // rank 0 -> a rank: the index of the next recording, or -1: stop
constexpr int kOutcome = 2;  // a rank -> rank 0: "index outcome-json"

// Whether a launcher (mpirun, srun) started this process: only then is MPI started, so that
// a plain `spikeminer run --batch` never waits for one.
bool launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
        if (std::getenv(name) != nullptr) return true;
    }
    return false;
}

void send_work(std::int64_t index, int rank) { MPI_Send(&index, 1, MPI_INT64_T, rank, kWork, MPI_COMM_WORLD); }

// Rank 0: the recordings to the ranks as they become free; their outcomes back, in the
// entries' order. Waits by polling, so that Cancel is seen while the others work.
std::vector<BatchOutcome> hand_out(const MpiRanks& ranks, const std::vector<BatchEntry>& entries, Progress* progress,
                                   const std::function<void(const BatchOutcome&)>& on_outcome) {
    std::vector<BatchOutcome> outcomes(entries.size());
    std::int64_t next = 0;
    int busy = 0;
    for (int rank = 1; rank < ranks.size(); ++rank) {
        if (next < static_cast<std::int64_t>(entries.size())) {
            send_work(next++, rank);
            ++busy;
        } else {
            send_work(-1, rank);
        }
    }
    while (busy > 0) {
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kOutcome, MPI_COMM_WORLD, &arrived, &status);
        if (arrived == 0) {
            if (progress != nullptr) progress->check_cancelled();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        int length = 0;
        MPI_Get_count(&status, MPI_CHAR, &length);
        std::string text(static_cast<std::size_t>(length), '\0');
        MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, kOutcome, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const std::size_t space = text.find(' ');
        const auto index = static_cast<std::size_t>(std::stoll(text.substr(0, space)));
        outcomes.at(index) = detail::outcome_from_text(text.substr(space + 1));
        if (on_outcome) on_outcome(outcomes[index]);
        if (next < static_cast<std::int64_t>(entries.size())) {
            send_work(next++, status.MPI_SOURCE);
        } else {
            send_work(-1, status.MPI_SOURCE);
            --busy;
        }
    }
    return outcomes;
}

// This rank's GPU, when its node has any: local rank mod GPUs.
void use_local_device(const MpiRanks& ranks) {
    const DeviceReport devices = query_devices();
    if (!devices.devices.empty()) use_device(ranks.local_rank() % static_cast<int>(devices.devices.size()));
}

// Any other rank: what rank 0 hands out, until it says stop.
void work(const MpiRanks& ranks, const std::vector<BatchEntry>& entries, const std::string& dir, Progress* progress,
          double figure_seconds) {
    use_local_device(ranks);
    for (;;) {
        std::int64_t index = -1;
        MPI_Recv(&index, 1, MPI_INT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (index < 0) return;
        const BatchOutcome outcome = detail::run_entry(entries.at(static_cast<std::size_t>(index)), dir, progress, figure_seconds);
        std::string text = std::to_string(index) + " " + detail::outcome_text(outcome);
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kOutcome, MPI_COMM_WORLD);
    }
}

constexpr int kBlock = 3;  // a rank -> rank 0: its block of windows

// Ends every rank: after a Cancel (exit 130) or an error (exit 1) on one, the others
// would wait for it.
[[noreturn]] void abort_all(const MpiRanks& ranks, std::exception_ptr failure) {
    int code = 1;
    try {
        std::rethrow_exception(failure);
    } catch (const Cancelled&) {
        code = 130;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spikeminer: rank %d: %s\n", ranks.rank(), e.what());
    }
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return
}

// Rank r's windows: [first, last) of `windows` cut into `ranks` contiguous blocks.
std::pair<std::size_t, std::size_t> block_of(int r, int ranks, std::size_t windows) {
    const auto n = static_cast<std::size_t>(ranks);
    const auto k = static_cast<std::size_t>(r);
    return {windows * k / n, windows * (k + 1) / n};
}

// A window as bytes: index, span, tests, edge count, then the edges as they lie in memory
// (the ranks run the same program on one machine type).
static_assert(std::is_trivially_copyable_v<mining::CofiringEdge>);

template <typename T>
void put(std::vector<char>& bytes, const T& value) {
    const auto* raw = reinterpret_cast<const char*>(&value);
    bytes.insert(bytes.end(), raw, raw + sizeof value);
}

template <typename T>
T take(const std::vector<char>& bytes, std::size_t& at) {
    if (at + sizeof(T) > bytes.size()) throw Error("a block of windows from another rank ends early");
    T value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    at += sizeof value;
    return value;
}

void put_window(std::vector<char>& bytes, const mining::CofiringWindow& w) {
    put(bytes, static_cast<std::uint64_t>(w.index));
    put(bytes, w.span.start);
    put(bytes, w.span.end);
    put(bytes, w.tests);
    put(bytes, static_cast<std::uint64_t>(w.edges.size()));
    for (const mining::CofiringEdge& e : w.edges) put(bytes, e);
}

mining::CofiringWindow take_window(const std::vector<char>& bytes, std::size_t& at) {
    mining::CofiringWindow w;
    w.index = take<std::uint64_t>(bytes, at);
    w.span.start = take<Tick>(bytes, at);
    w.span.end = take<Tick>(bytes, at);
    w.tests = take<std::uint64_t>(bytes, at);
    const auto edges = take<std::uint64_t>(bytes, at);
    for (std::uint64_t e = 0; e < edges; ++e) w.edges.push_back(take<mining::CofiringEdge>(bytes, at));
    return w;
}

// Rank r >= 1: its block of windows, computed and sent to rank 0 in one message.
void send_block(const MpiRanks& ranks, const Input& input, const RunConfig& config, Progress* progress) {
    mining::CofiringOptions options = cofiring_options(config, input.recording.trains);
    options.progress = progress;
    mining::CofiringWindows windows(input.recording.trains, options);
    const auto [first, last] = block_of(ranks.rank(), ranks.size(), windows.size());
    windows.skip_to(first);
    std::vector<char> bytes;
    mining::CofiringWindow window;
    for (std::size_t w = first; w < last && windows.next(window); ++w) put_window(bytes, window);
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw Error("rank " + std::to_string(ranks.rank()) + "'s windows take " + std::to_string(bytes.size()) +
                    " bytes, more than one message holds: run with more ranks");
    }
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, 0, kBlock, MPI_COMM_WORLD);
}

// Rank 0's windows: its own block computed here, then each other rank's as it arrives.
WindowFeed gathered_windows(const MpiRanks& ranks) {
    struct State {
        std::size_t next = 0;
        int from = 0;  // the rank whose block is being read
        std::vector<char> bytes;
        std::size_t at = 0;
    };
    auto state = std::make_shared<State>();
    return [state, size = ranks.size()](mining::CofiringWindows& windows, mining::CofiringWindow& window) {
        State& s = *state;
        if (s.next >= windows.size()) return false;
        if (s.next < block_of(0, size, windows.size()).second) {
            ++s.next;
            return windows.next(window);
        }
        while (s.at >= s.bytes.size()) {  // the next rank's block (an empty one has no windows)
            ++s.from;
            MPI_Status status;
            MPI_Probe(s.from, kBlock, MPI_COMM_WORLD, &status);
            int length = 0;
            MPI_Get_count(&status, MPI_CHAR, &length);
            s.bytes.assign(static_cast<std::size_t>(length), '\0');
            MPI_Recv(s.bytes.data(), length, MPI_CHAR, s.from, kBlock, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s.at = 0;
        }
        window = take_window(s.bytes, s.at);
        if (window.index != s.next) throw Error("window " + std::to_string(window.index) + " came from rank " + std::to_string(s.from) +
                                                " where window " + std::to_string(s.next) + " was due");
        ++s.next;
        return true;
    };
}

}  // namespace

MpiRanks::MpiRanks() {
    if (!launched_by_mpi()) return;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);  // only the main thread calls MPI
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // Collective: every rank asks here, together, never one rank alone later.
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_free(&node);
}

MpiRanks::~MpiRanks() {
    int started = 0;
    MPI_Initialized(&started);
    int finished = 0;
    MPI_Finalized(&finished);
    if (started != 0 && finished == 0) MPI_Finalize();
}

std::vector<BatchOutcome> run_batch_on_ranks(const MpiRanks& ranks, const std::vector<BatchEntry>& entries, const std::string& dir,
                                             const std::string& manifest, Progress* progress, double figure_seconds,
                                             const std::function<void(const BatchOutcome&)>& on_outcome) {
    if (ranks.size() == 1) return run_batch(entries, dir, manifest, progress, figure_seconds, on_outcome);
    // A rank that stops early (Cancel, an error) ends them all: the others would wait for it.
    try {
        if (ranks.rank() == 0) detail::make_batch_dir(dir);
        MPI_Barrier(MPI_COMM_WORLD);  // the folder exists before anyone writes into it
        if (ranks.rank() != 0) {
            work(ranks, entries, dir, progress, figure_seconds);
            return {};
        }
        std::vector<BatchOutcome> outcomes = hand_out(ranks, entries, progress, on_outcome);
        detail::write_batch_summary(dir, outcomes, manifest);
        return outcomes;
    } catch (...) {
        abort_all(ranks, std::current_exception());
    }
}

std::optional<PipelineResult> run_pipeline_on_ranks(const MpiRanks& ranks, const Input& input, const RunConfig& config,
                                                    Progress* progress) {
    if (ranks.size() == 1) return run_pipeline(input, config, progress);
    if (!config.devices.empty()) throw UsageError("the ranks of an MPI run take their GPUs by local rank: leave devices out");
    try {
        if (ranks.rank() != 0) {
            use_local_device(ranks);
            send_block(ranks, input, config, progress);
            return std::nullopt;
        }
        return run_pipeline(input, config, progress, gathered_windows(ranks));
    } catch (...) {
        abort_all(ranks, std::current_exception());
    }
}

#else

MpiRanks::MpiRanks() = default;
MpiRanks::~MpiRanks() = default;

std::vector<BatchOutcome> run_batch_on_ranks(const MpiRanks& /*ranks*/, const std::vector<BatchEntry>& entries, const std::string& dir,
                                             const std::string& manifest, Progress* progress, double figure_seconds,
                                             const std::function<void(const BatchOutcome&)>& on_outcome) {
    return run_batch(entries, dir, manifest, progress, figure_seconds, on_outcome);
}

std::optional<PipelineResult> run_pipeline_on_ranks(const MpiRanks& /*ranks*/, const Input& input, const RunConfig& config,
                                                    Progress* progress) {
    return run_pipeline(input, config, progress);
}

#endif

}  // namespace spikeminer::pipeline
