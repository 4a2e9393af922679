// The surrogate edge test of many windows at once on the device (cofiring_surrogates.hpp).
// Each pass makes a group of surrogates, each only where the windows' edges need it: per
// neuron with an edge, its spikes that can land near those windows (one block a neuron
// and surrogate, by dithering.hpp's rules, the code the CPU runs). Then one thread per
// piece of an open test and surrogate counts it (pair_test_count.hpp, as the CPU counts),
// and one thread per test takes the group's counts in surrogate order with the sequential
// stop of test_against_surrogates. The host corrects each window's p-values as the CPU
// does.
#include "../cofiring_surrogates.hpp"
#include "../dithering.hpp"
#include "../tuning.hpp"
#include "device_calls.cuh"
#include "device_recording.hpp"
#include "device_stream.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/neuron_times.hpp"

#include <algorithm>
#include <limits>

namespace spikeminer::mining::detail {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::blocks_for;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::DeviceStream;
using spikeminer::detail::read_one;
using spikeminer::detail::upload;
using spikeminer::detail::upload_pooled;

using tuning::kBlock;

constexpr unsigned kPlaceBlock = 256;
constexpr std::size_t kMostGroup = 32;     // surrogates made in one pass
constexpr std::size_t kPieceSpikes = 4096;  // spikes of a pair a thread walks, about

// The spikes of one neuron that a pass places in each surrogate: its own [first, last),
// those that can land near the windows where it has an edge, which need the originals of
// [from, to) (dither_slice); at `base` in a surrogate's part of the placed spikes.
struct Slice {
    NeuronId neuron;
    std::uint64_t offset;  // the neuron's first spike in the by-neuron layout
    std::uint64_t count;   // its spikes
    std::uint64_t from;
    std::uint64_t first;
    std::uint64_t last;
    std::uint64_t to;
    std::uint64_t base;
};

// A piece of one edge's test: the part of its window [from, to) where the later spikes
// of its pairs are counted (a test of a long window is split, so that no thread walks
// far more spikes than the others), its neurons' slices, its lags, and which test.
struct TestPiece {
    Tick from;
    Tick to;
    std::uint32_t slice_a;
    std::uint32_t slice_b;
    PairTestLags lags;
    std::uint64_t test;
};

// An edge's sequential test so far, as test_against_surrogates keeps it.
struct EdgeTally {
    double sum = 0;
    double squares = 0;
    std::uint32_t used = 0;
    std::uint32_t exceedances = 0;
    std::uint32_t open = 1;
};

// Block (slice, g): the slice's spikes in surrogate first_surrogate + g, as
// SurrogateTrains' dither places them: the originals, the even spikes between them, then
// the odd ones between the moved even ones.
__global__ void place_kernel(const Slice* slices, const Tick* by_neuron, Tick* placed, std::uint64_t per_surrogate, DitherBounds bounds,
                             std::uint64_t first_surrogate, const std::uint32_t* histograms, std::size_t cells) {
    const Slice slice = slices[blockIdx.x];
    const std::uint64_t surrogate = first_surrogate + blockIdx.y;
    const Tick* times = by_neuron + slice.offset;
    Tick* out = placed + blockIdx.y * per_surrogate + slice.base - slice.from;  // indexed by the neuron's spike number
    const std::uint32_t* histogram = histograms != nullptr ? histograms + slice.neuron * cells : nullptr;
    for (std::uint64_t k = slice.from + threadIdx.x; k < slice.to; k += blockDim.x) out[k] = times[k];
    __syncthreads();
    const DitherSlice needs = dither_slice(slice.first, slice.last, slice.count);
    const std::uint64_t even_from = needs.even_from;
    for (std::uint64_t k = even_from + (even_from & 1U) + 2 * std::uint64_t{threadIdx.x}; k < needs.even_to; k += 2 * std::uint64_t{blockDim.x}) {
        out[k] = dithered_spike(times, out, slice.count, k, bounds, surrogate, slice.neuron, histogram);
    }
    __syncthreads();
    for (std::uint64_t k = slice.first + ((slice.first & 1U) ^ 1U) + 2 * std::uint64_t{threadIdx.x}; k < slice.last;
         k += 2 * std::uint64_t{blockDim.x}) {
        out[k] = dithered_spike(times, out, slice.count, k, bounds, surrogate, slice.neuron, histogram);
    }
}

// Thread (g, i): piece i of an open test counted in the pass's surrogate g, added to the
// test's count there (zeroed before).
__global__ void count_kernel(const TestPiece* pieces, std::uint64_t n_pieces, std::uint64_t n_tests, const Slice* slices,
                             const Tick* placed, std::uint64_t per_surrogate, std::uint64_t group, const EdgeTally* tallies,
                             unsigned long long* counts) {
    const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (t >= n_pieces * group) return;
    const std::uint64_t g = t / n_pieces;
    const TestPiece piece = pieces[t % n_pieces];
    if (tallies[piece.test].open == 0) return;
    const Slice a = slices[piece.slice_a];
    const Slice b = slices[piece.slice_b];
    const Tick* surrogate = placed + g * per_surrogate;
    const std::uint64_t c = count_pair_test(surrogate + a.base + (a.first - a.from), a.last - a.first, surrogate + b.base + (b.first - b.from),
                                            b.last - b.first, piece.from, piece.to, piece.lags);
    if (c != 0) atomicAdd(counts + g * n_tests + piece.test, static_cast<unsigned long long>(c));
}

// Thread i: the pass's counts of open test i taken in surrogate order, stopping where
// `enough` of them reached its count; `still_open` counts the tests left open.
__global__ void tally_kernel(const std::uint64_t* observed, std::uint64_t n_tests, const unsigned long long* counts, std::uint64_t group,
                             std::size_t enough, EdgeTally* tallies, unsigned int* still_open) {
    const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    if (i >= n_tests || tallies[i].open == 0) return;
    EdgeTally tally = tallies[i];
    for (std::uint64_t g = 0; g < group && tally.open != 0; ++g) {
        const std::uint64_t c = counts[g * n_tests + i];
        const auto value = static_cast<double>(c);
        tally.sum = __dadd_rn(tally.sum, value);  // as the host adds: no fused multiply-add
        tally.squares = __dadd_rn(tally.squares, __dmul_rn(value, value));
        ++tally.used;
        if (c >= observed[i]) ++tally.exceedances;
        if (tally.exceedances >= enough) tally.open = 0;
    }
    tallies[i] = tally;
    if (tally.open != 0) atomicAdd(still_open, 1U);
}

}  // namespace

struct GpuEdgeSurrogates::Device {
    DitherBounds bounds;
    std::shared_ptr<const DeviceRecording> recording;
    const Tick* by_neuron = nullptr;  // the recording's, shared with the other threads on the device
    DeviceBuffer<std::uint32_t> histograms;  // joint-ISI dithering only
    std::size_t cells = 0;
    DeviceStream stream;
};

GpuEdgeSurrogates::GpuEdgeSurrogates(const SpikeTrains& trains, const SurrogateOptions& options)
    : trains_(trains), device_(std::make_unique<Device>()) {
    Device& d = *device_;
    d.bounds = bounds_for(trains, options);
    if (d.bounds.kind == SurrogateKind::Shift) throw Error("the GPU's surrogate edge test makes dither and isi surrogates");
    const cudaStream_t s = d.stream.get();
    d.recording = device_recording(trains);
    d.by_neuron = d.recording->times_by_neuron();
    if (d.bounds.kind == SurrogateKind::JointIsi) {
        const IsiBins shape(d.bounds.dither);
        d.cells = shape.cells();
        d.histograms = upload(joint_isi_histograms(NeuronTimes(trains), shape), "interval histograms", s);
    }
}

GpuEdgeSurrogates::~GpuEdgeSurrogates() = default;

void GpuEdgeSurrogates::confirm(std::span<CofiringWindow> windows, const CofiringLags& lags, const EdgeTest& test, Progress* progress) {
    if (!test.surrogates) return;
    const SignificanceOptions options = edge_surrogate_options(test);
    check_sequential_test(options);
    Device& d = *device_;
    const cudaStream_t s = d.stream.get();
    // Each neuron with an edge: the stretch near all its windows, then its slice.
    const Tick reach = longest_lag(lags);
    std::vector<TimeSpan> near(trains_.num_neurons(), TimeSpan{std::numeric_limits<Tick>::max(), std::numeric_limits<Tick>::min()});
    for (const CofiringWindow& window : windows) {
        for (const CofiringEdge& edge : window.edges) {
            for (const NeuronId n : {edge.a, edge.b}) {
                near[n].start = std::min(near[n].start, window.span.start - reach);
                near[n].end = std::max(near[n].end, window.span.end);
            }
        }
    }
    std::vector<Slice> slices;
    std::vector<std::uint32_t> slice_of(trains_.num_neurons());
    std::uint64_t per_surrogate = 0;
    for (NeuronId n = 0; n < trains_.num_neurons(); ++n) {
        if (near[n].start > near[n].end) continue;
        // The spikes that can land near its windows: within the dither of them.
        const auto of = trains_.spikes_of(n);
        const auto near_ones = trains_.spikes_of(n, {near[n].start - d.bounds.dither, near[n].end + d.bounds.dither});
        const auto first = static_cast<std::uint64_t>(near_ones.data() - of.data());
        Slice slice{n, trains_.neuron_offsets()[n], of.size(), 0, first, first + near_ones.size(), 0, per_surrogate};
        const DitherSlice needs = dither_slice(slice.first, slice.last, slice.count);
        slice.from = needs.from;
        slice.to = needs.to;
        per_surrogate += slice.to - slice.from;
        slice_of[n] = static_cast<std::uint32_t>(slices.size());
        slices.push_back(slice);
    }
    // Each edge's test, in pieces of its window that hold about kPieceSpikes of its two
    // neurons' spikes.
    std::vector<TestPiece> pieces;
    std::vector<std::uint64_t> observed;
    for (const CofiringWindow& window : windows) {
        for (const CofiringEdge& edge : window.edges) {
            const std::size_t spikes = trains_.spikes_of(edge.a, window.span).size() + trains_.spikes_of(edge.b, window.span).size();
            const Tick length = window.span.length();
            const auto parts = static_cast<Tick>(std::clamp<std::size_t>(spikes / kPieceSpikes, 1, static_cast<std::size_t>(std::max<Tick>(1, length))));
            // Piece k starts length * k / parts in, without the product's overflow.
            const auto at = [&](Tick k) { return window.span.start + length / parts * k + length % parts * k / parts; };
            for (Tick k = 0; k < parts; ++k) {
                pieces.push_back({at(k), at(k + 1), slice_of[edge.a], slice_of[edge.b], pair_test_lags(lags, edge.interval), observed.size()});
            }
            observed.push_back(edge.count);
        }
    }
    if (observed.empty()) return;
    const std::uint64_t n_tests = observed.size();
    const std::uint64_t n_pieces = pieces.size();
    const std::uint64_t group = std::clamp<std::uint64_t>(tuning::kEdgeSurrogateBytes / std::max<std::uint64_t>(1, per_surrogate * sizeof(Tick)), 1,
                                                          std::min<std::uint64_t>(kMostGroup, options.surrogates));
    // From the stream's pool: freed in stream order, without waiting for the whole device.
    const std::vector<EdgeTally> fresh(n_tests);
    const DeviceBuffer<Slice> device_slices = upload_pooled(slices.data(), slices.size(), "surrogate edge test slices", s);
    const DeviceBuffer<TestPiece> device_pieces = upload_pooled(pieces.data(), n_pieces, "surrogate edge tests", s);
    const DeviceBuffer<std::uint64_t> device_observed = upload_pooled(observed.data(), n_tests, "surrogate edge tests", s);
    const DeviceBuffer<EdgeTally> tallies = upload_pooled(fresh.data(), n_tests, "surrogate edge tests", s);
    const DeviceBuffer<Tick> placed = allocate_or_oom<Tick>(group * per_surrogate, "surrogate spikes near the windows", s);
    const DeviceBuffer<unsigned long long> counts = allocate_or_oom<unsigned long long>(group * n_tests, "surrogate edge test counts", s);
    const DeviceBuffer<unsigned int> still_open = allocate_or_oom<unsigned int>(1, "surrogate edge tests", s);
    for (std::uint64_t first = 0; first < options.surrogates; first += group) {
        if (progress != nullptr) progress->check_cancelled();
        const std::uint64_t now = std::min<std::uint64_t>(group, options.surrogates - first);
        place_kernel<<<dim3(static_cast<unsigned>(slices.size()), static_cast<unsigned>(now)), kPlaceBlock, 0, s>>>(
            device_slices.get(), d.by_neuron, placed.get(), per_surrogate, d.bounds, first, d.histograms.get(), d.cells);
        check_launch();
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, now * n_tests * sizeof(unsigned long long), s));
        count_kernel<<<blocks_for(n_pieces * now, kBlock), kBlock, 0, s>>>(device_pieces.get(), n_pieces, n_tests, device_slices.get(),
                                                                            placed.get(), per_surrogate, now, tallies.get(), counts.get());
        check_launch();
        SPIKEMINER_CUDA_CHECK(cudaMemsetAsync(still_open.get(), 0, sizeof(unsigned int), s));
        tally_kernel<<<blocks_for(n_tests, kBlock), kBlock, 0, s>>>(device_observed.get(), n_tests, counts.get(), now,
                                                                     options.enough_exceedances, tallies.get(), still_open.get());
        check_launch();
        if (read_one(still_open.get(), s) == 0) break;
    }
    std::vector<EdgeTally> tallied(n_tests);
    SPIKEMINER_CUDA_CHECK(cudaMemcpyAsync(tallied.data(), tallies.get(), n_tests * sizeof(EdgeTally), cudaMemcpyDeviceToHost, s));
    SPIKEMINER_CUDA_CHECK(cudaStreamSynchronize(s));
    // Each window's tests settled and corrected among its edges, as on the CPU.
    std::size_t at = 0;
    for (CofiringWindow& window : windows) {
        const std::size_t edges = window.edges.size();
        std::vector<SurrogateSignificance> tested(edges);
        std::vector<double> sums(edges);
        std::vector<double> squares(edges);
        for (std::size_t e = 0; e < edges; ++e, ++at) {
            tested[e].count = observed[at];
            tested[e].surrogates_used = tallied[at].used;
            tested[e].exceedances = tallied[at].exceedances;
            sums[e] = tallied[at].sum;
            squares[e] = tallied[at].squares;
        }
        if (edges != 0) {
            settle_surrogate_tests(tested, sums, squares, options);
            keep_confirmed(window, tested);
        }
    }
}

}  // namespace spikeminer::mining::detail
