// A batch over the processes of an MPI launch (batch.hpp): rank 0 hands out recordings,
// the others run them. Without MPI, one process runs the batch.
#include "spikeminer/app/pipeline/batch.hpp"

#include "batch_parts.hpp"

#include "spikeminer/core/device_query.hpp"
#include "spikeminer/core/error.hpp"

#ifdef SPIKEMINER_HAVE_MPI
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
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

// This rank's place among the ranks of its node.
int local_rank() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int rank = 0;
    MPI_Comm_rank(node, &rank);
    MPI_Comm_free(&node);
    return rank;
}

// Rank 0: the recordings to the ranks as they become free; their outcomes back, in the
// entries' order. Waits by polling, so that Cancel is seen while the others work.
std::vector<BatchOutcome> hand_out(const BatchRanks& ranks, const std::vector<BatchEntry>& entries, Progress* progress,
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

// Any other rank: what rank 0 hands out, until it says stop.
void work(const std::vector<BatchEntry>& entries, const std::string& dir, Progress* progress, double figure_seconds) {
    const DeviceReport devices = query_devices();
    if (!devices.devices.empty()) use_device(local_rank() % static_cast<int>(devices.devices.size()));
    for (;;) {
        std::int64_t index = -1;
        MPI_Recv(&index, 1, MPI_INT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (index < 0) return;
        const BatchOutcome outcome = detail::run_entry(entries.at(static_cast<std::size_t>(index)), dir, progress, figure_seconds);
        std::string text = std::to_string(index) + " " + detail::outcome_text(outcome);
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, kOutcome, MPI_COMM_WORLD);
    }
}

}  // namespace

BatchRanks::BatchRanks() {
    if (!launched_by_mpi()) return;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);  // only the main thread calls MPI
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

BatchRanks::~BatchRanks() {
    int started = 0;
    MPI_Initialized(&started);
    int finished = 0;
    MPI_Finalized(&finished);
    if (started != 0 && finished == 0) MPI_Finalize();
}

std::vector<BatchOutcome> run_batch_on_ranks(const BatchRanks& ranks, const std::vector<BatchEntry>& entries, const std::string& dir,
                                             const std::string& manifest, Progress* progress, double figure_seconds,
                                             const std::function<void(const BatchOutcome&)>& on_outcome) {
    if (ranks.size() == 1) return run_batch(entries, dir, manifest, progress, figure_seconds, on_outcome);
    // A rank that stops early (Cancel, an error) ends them all: the others would wait for it.
    try {
        if (ranks.rank() == 0) detail::make_batch_dir(dir);
        MPI_Barrier(MPI_COMM_WORLD);  // the folder exists before anyone writes into it
        if (ranks.rank() != 0) {
            work(entries, dir, progress, figure_seconds);
            return {};
        }
        std::vector<BatchOutcome> outcomes = hand_out(ranks, entries, progress, on_outcome);
        detail::write_batch_summary(dir, outcomes, manifest);
        return outcomes;
    } catch (const Cancelled&) {
        MPI_Abort(MPI_COMM_WORLD, 130);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spikeminer: rank %d: %s\n", ranks.rank(), e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return {};
}

#else

BatchRanks::BatchRanks() = default;
BatchRanks::~BatchRanks() = default;

std::vector<BatchOutcome> run_batch_on_ranks(const BatchRanks& /*ranks*/, const std::vector<BatchEntry>& entries, const std::string& dir,
                                             const std::string& manifest, Progress* progress, double figure_seconds,
                                             const std::function<void(const BatchOutcome&)>& on_outcome) {
    return run_batch(entries, dir, manifest, progress, figure_seconds, on_outcome);
}

#endif

}  // namespace spikeminer::pipeline
