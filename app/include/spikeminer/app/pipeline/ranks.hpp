#pragma once
// The processes of an MPI launch (`mpirun -np N spikeminer run ...`), and the pipeline's
// work spread over them: the recordings of a batch, or one recording's co-firing windows.

#include "spikeminer/app/pipeline/batch.hpp"
#include "spikeminer/app/pipeline/pipeline.hpp"

#include <optional>

namespace spikeminer::pipeline {

/// This process among those of the launch: under mpirun (or srun) in a build with MPI,
/// rank r of N (MPI starts with this object and finishes with it); otherwise rank 0 of 1.
class MpiRanks {
public:
    MpiRanks();
    ~MpiRanks();
    MpiRanks(const MpiRanks&) = delete;
    MpiRanks& operator=(const MpiRanks&) = delete;
    [[nodiscard]] int rank() const { return rank_; }
    [[nodiscard]] int size() const { return size_; }
    /// This rank's place among the ranks of its node (which of the node's GPUs it uses).
    [[nodiscard]] int local_rank() const { return local_rank_; }

private:
    int rank_ = 0;
    int size_ = 1;
    int local_rank_ = 0;
};

/// run_batch spread over `ranks`. Rank 0 hands the recordings out one at a time, each to
/// the next rank that is free, hears their outcomes as they end (`on_outcome`) and writes
/// the summary: the same folders and tables as run_batch's. Every other rank runs what it
/// is given, on its node's GPU number (local rank mod GPUs) when the node has GPUs, and
/// returns nothing. Cancel (Ctrl-C, which mpirun passes to every rank) or a rank that
/// dies ends all of them. With one rank this is run_batch.
std::vector<BatchOutcome> run_batch_on_ranks(const MpiRanks& ranks, const std::vector<BatchEntry>& entries, const std::string& dir,
                                             const std::string& manifest, Progress* progress, double figure_seconds = 10,
                                             const std::function<void(const BatchOutcome&)>& on_outcome = {});

/// run_pipeline spread over `ranks`: every rank has the same input; the co-firing windows
/// (the costly stage) are cut into contiguous blocks, one per rank (a window does not
/// depend on those before it). Rank 0 computes the first block and everything else, with
/// the others' windows as they send them, and returns the result: the same as
/// run_pipeline's. The other ranks compute and send their block and return nothing. With
/// one rank this is run_pipeline.
std::optional<PipelineResult> run_pipeline_on_ranks(const MpiRanks& ranks, const Input& input, const RunConfig& config,
                                                    Progress* progress);

}  // namespace spikeminer::pipeline
