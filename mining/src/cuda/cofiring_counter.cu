// The GPU co-firing counter: the stream and its per-neuron index on the device, the bins of
// one window and their sum there; each step counts the bin that enters, takes away the one
// that leaves, and picks the window's candidate tests, of which only those come back. Made
// to, it also keeps its share of the whole recording's counts there.
#include "../cofiring_counter.hpp"
#include "../tuning.hpp"
#include "cofiring_kernels.cuh"
#include "device_calls.cuh"
#include "device_recording.hpp"
#include "device_stream.hpp"
#include "mapped_host.hpp"

#include <algorithm>
#include <memory>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::DeviceStream;
using spikeminer::detail::MappedHost;
using spikeminer::detail::upload;

using tuning::kBlock;
using tuning::kEndsPerBlock;  // more when a neuron's ends need more than kMaxShares blocks
using tuning::kFirstCapacity;
using tuning::kPieceSpikes;
constexpr std::uint32_t kMaxShares = 65535;  // a grid's y extent

class GpuCofiringCounter final : public CofiringCounter {
public:
    GpuCofiringCounter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins, CounterProgress progress, bool whole)
        : trains_(trains), lags_(lags), bins_(bins), progress_(progress), n_(trains.num_neurons()),
          cells_(n_ * n_ * static_cast<std::size_t>(lags.slots)), from_(n_), to_(n_), staged_spikes_(n_) {
        const cudaStream_t s = stream_.get();
        spikes_ = device_recording(trains);
        cursor_.assign(n_, 0);
        first_ = allocate_or_oom<std::uint32_t>(n_, "co-firing ranges");
        last_ = allocate_or_oom<std::uint32_t>(n_, "co-firing ranges");
        window_ = allocate_or_oom<unsigned long long>(cells_, "co-firing window counts");
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(window_.get(), 0, cells_ * sizeof(unsigned long long), s));
        const std::size_t kept = bins_.windows > 1 ? bins_.per_window : 1;
        bins_memory_ = allocate_or_oom<std::uint32_t>(kept * cells_, "co-firing bin counts");
        if (whole && bins_.windows > 1) {
            share_ = allocate_or_oom<unsigned long long>(cells_, "co-firing whole-recording share");
            SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(share_.get(), 0, cells_ * sizeof(unsigned long long), s));
        }
        window_spikes_ = allocate_or_oom<std::uint64_t>(n_, "co-firing window spikes");
        tally_ = allocate_or_oom<WindowTally>(1, "co-firing candidates");
        at_level_ = allocate_or_oom<unsigned long long>(kLevels, "co-firing candidates");
        found_ = allocate_or_oom<CofiringCandidate>(kFirstCapacity, "co-firing candidates");
        kept_ = allocate_or_oom<CofiringCandidate>(kFirstCapacity, "co-firing candidates");
        args_.slots = lags_.slots;
        args_.look_backs = look_backs(lags_);
        for (int slot = 0; slot < lags_.slots; ++slot) args_.slot_lo[slot] = lags_.lo[slot];
        int device = 0;
        int optin = 0;
        SPIKEMINER_CUDA_CHECK(cudaGetDevice(&device));
        SPIKEMINER_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        row_bytes_ = n_ * static_cast<std::size_t>(lags.slots) * sizeof(std::uint32_t);
        shared_row_ = row_bytes_ <= static_cast<std::size_t>(optin);
        if (shared_row_) {
            SPIKEMINER_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(count_piece_kernel<true>),
                                                       cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(row_bytes_)));
        }
    }

    void move_to(std::size_t first, std::size_t last) override {
        for (std::size_t b = first_bin_; b < last_bin_; ++b) {
            if (b < first || b >= last) add(window_.get(), bin_counts(b), true);
        }
        for (std::size_t b = first; b < last; ++b) {
            if (b < first_bin_ || b >= last_bin_) count_bin(b);
        }
        first_bin_ = first;
        last_bin_ = last;
        if (share_.size() == 0) return;
        const ShareOfWindow part = share_of_window(bins_, first);
        if (part.window) {
            add(share_.get(), window_.get(), false);
            shared_steps_ += last - first;
        }
        for (std::size_t b = part.tail_first; b < part.tail_last; ++b, ++shared_steps_) add(share_.get(), bin_counts(b), false);
    }

    std::optional<WholeRecordingShare> whole_recording_share() override {
        if (share_.size() == 0) return std::nullopt;
        WholeRecordingShare share{std::vector<std::uint64_t>(cells_), shared_steps_};
        static_assert(sizeof(std::uint64_t) == sizeof(unsigned long long));
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(share.counts.data(), share_.get(), cells_ * sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                                              stream_.get()));
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        return share;
    }

    std::vector<CofiringCandidate> candidates(const CandidateRule& host_rule) override {
        const cudaStream_t s = stream_.get();
        CandidateRule rule = host_rule;
        if (rule.table != nullptr && table_.size() == 0) {
            table_ = upload(rule.table, static_cast<std::size_t>(1 + lags_.intervals) * kLevels * rule.table_d, "co-firing tables", s);
        }
        rule.table = rule.table != nullptr ? table_.get() : nullptr;
        std::copy(host_rule.window_spikes, host_rule.window_spikes + n_, staged_spikes_.host());
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(window_spikes_.get(), staged_spikes_.host(), n_ * sizeof(std::uint64_t),
                                              cudaMemcpyHostToDevice, s));
        rule.window_spikes = window_spikes_.get();
        for (;;) {
            SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(tally_.get(), 0, sizeof(WindowTally), s));
            SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(at_level_.get(), 0, kLevels * sizeof(unsigned long long), s));
            candidates_kernel<<<blocks_for(n_ * n_, kBlock), kBlock, 0, s>>>(rule, window_.get(), found_.get(), tally_.get(),
                                                                               at_level_.get(), found_.size());
            check_launch();
            needed_level_kernel<<<1, 1, 0, s>>>(rule, at_level_.get(), tally_.get());
            check_launch();
            keep_needed_kernel<<<blocks_for(found_.size(), kBlock), kBlock, 0, s>>>(found_.get(), tally_.get(), kept_.get(), found_.size());
            check_launch();
            const WindowTally tally = spikeminer::detail::read_one(tally_.get(), s);
            if (tally.found <= found_.size()) {
                std::vector<CofiringCandidate> out(tally.kept);
                if (!out.empty()) {
                    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(out.data(), kept_.get(), out.size() * sizeof(CofiringCandidate),
                                                          cudaMemcpyDeviceToHost, s));
                    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s));
                }
                return out;
            }
            const std::size_t capacity = std::max<std::size_t>(tally.found, 2 * found_.size());
            found_ = allocate_or_oom<CofiringCandidate>(capacity, "co-firing candidates");
            kept_ = allocate_or_oom<CofiringCandidate>(capacity, "co-firing candidates");
        }
    }

private:
    std::uint32_t* bin_counts(std::size_t b) {
        return bins_memory_.get() + (bins_.windows > 1 ? (b % bins_.per_window) * cells_ : 0);
    }

    template <typename T>
    void add(unsigned long long* into, const T* from, bool subtract) {
        add_counts_kernel<<<blocks_for(cells_, kBlock), kBlock, 0, stream_.get()>>>(into, from, cells_, subtract);
        check_launch();
    }

    // Counts bin b, piece by piece, into its slot (windows that slide) or into the window.
    void count_bin(std::size_t b) {
        const bool keep = bins_.windows > 1;
        std::uint32_t* counts = bin_counts(b);
        const auto pieces = bin_pieces(trains_.times(), bins_.bin(b), lags_.reach, keep, kPieceSpikes, 0);
        if (keep && pieces.empty()) SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts, 0, cells_ * sizeof(std::uint32_t), stream_.get()));
        for (const auto& [first, last] : pieces) {
            count_piece(first, last, counts, keep);
            add(window_.get(), counts, false);
            if (progress_.progress == nullptr) continue;
            if (progress_.report_spikes) {
                // One window is all the work: wait for each piece, to report it and to stop soon after a Cancel.
                SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
                progress_.progress->update(last);
            } else {
                progress_.progress->check_cancelled();
            }
        }
    }

    // Adds the occurrences ending at spikes [first, last) to `counts` (overwritten when
    // each end neuron's row goes to one block).
    void count_piece(std::size_t first, std::size_t last, std::uint32_t* counts, bool keep) {
        const cudaStream_t s = stream_.get();
        if (n_ == 0) return;
        // Each neuron's ends in the piece: cursors into its spikes that only move forward, as
        // pieces do (a window that jumps back starts them again). The pinned copies of the
        // last piece's ends must have reached the device before they are overwritten.
        SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s));
        if (first < cursor_at_) std::fill(cursor_.begin(), cursor_.end(), 0u);
        cursor_at_ = first;
        std::uint32_t most = 0;
        std::uint32_t* from = from_.host();
        std::uint32_t* to = to_.host();
        for (NeuronId n = 0; n < n_; ++n) {
            const auto of = trains_.spikes_of(n);
            std::uint32_t c = cursor_[n];
            while (c < of.size() && of[c] < first) ++c;
            from[n] = c;
            while (c < of.size() && of[c] < last) ++c;
            to[n] = c;
            cursor_[n] = from[n];
            most = std::max(most, to[n] - from[n]);
        }
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(first_.get(), from, n_ * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s));
        SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(last_.get(), to, n_ * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s));
        // A grid's second dimension holds at most 65,535 shares of one neuron's ends.
        const std::uint32_t per_block = std::max<std::uint32_t>(kEndsPerBlock, (most + kMaxShares - 1) / kMaxShares);
        const std::uint32_t shares = std::max<std::uint32_t>(1, (most + per_block - 1) / per_block);
        PieceArgs a = args_;
        a.times = spikes_->times.get();
        a.neurons = spikes_->neurons.get();
        a.spikes = trains_.num_spikes();
        a.positions = spikes_->positions.get();
        a.offsets = spikes_->offsets.get();
        a.first = first_.get();
        a.last = last_.get();
        a.per_block = per_block;
        a.counts = counts;
        a.neuron_count = static_cast<std::uint32_t>(n_);
        a.exclusive = shares == 1 && shared_row_ && keep;
        if (!a.exclusive) SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts, 0, cells_ * sizeof(std::uint32_t), s));
        const dim3 grid(static_cast<unsigned>(n_), shares);
        if (shared_row_) {
            count_piece_kernel<true><<<grid, kBlock, row_bytes_, s>>>(a);
        } else {
            count_piece_kernel<false><<<grid, kBlock, 0, s>>>(a);
        }
        check_launch();
    }

    const SpikeTrains& trains_;
    LagLayout lags_;
    BinLayout bins_;
    CounterProgress progress_;
    std::size_t n_;
    std::size_t cells_;
    DeviceStream stream_;
    std::shared_ptr<const DeviceRecording> spikes_;
    DeviceBuffer<std::uint32_t> first_;
    DeviceBuffer<std::uint32_t> last_;
    DeviceBuffer<unsigned long long> window_;
    DeviceBuffer<unsigned long long> share_;  // of the whole recording, when kept (whole_recording_share)
    std::size_t shared_steps_ = 0;            // the bins added to it
    DeviceBuffer<std::uint32_t> bins_memory_;  // per_window bins (windows that slide) or one piece's scratch
    DeviceBuffer<std::uint64_t> window_spikes_;
    DeviceBuffer<std::uint32_t> table_;
    DeviceBuffer<CofiringCandidate> found_;
    DeviceBuffer<CofiringCandidate> kept_;
    DeviceBuffer<WindowTally> tally_;
    DeviceBuffer<unsigned long long> at_level_;
    PieceArgs args_{};
    std::vector<std::uint32_t> cursor_;  // per neuron: its first spike at or after cursor_at_
    std::size_t cursor_at_ = 0;
    MappedHost<std::uint32_t> from_;          // pinned staging of first_, last_ and window_spikes_
    MappedHost<std::uint32_t> to_;
    MappedHost<std::uint64_t> staged_spikes_;
    std::size_t row_bytes_ = 0;
    bool shared_row_ = false;
    std::size_t first_bin_ = 0;
    std::size_t last_bin_ = 0;
};

}  // namespace

std::unique_ptr<CofiringCounter> make_gpu_cofiring_counter(const SpikeTrains& trains, const LagLayout& lags, const BinLayout& bins,
                                                           CounterProgress progress, bool whole) {
    return std::make_unique<GpuCofiringCounter>(trains, lags, bins, progress, whole);
}

}  // namespace spikeminer::mining::detail
