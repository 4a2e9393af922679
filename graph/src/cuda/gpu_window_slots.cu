// See gpu_window_slots.hpp. One warp reads one slot: a window's graph is a few hundred
// edges, so a warp's lanes share its rows, and a launch holds hundreds of slots.
#include "device_calls.cuh"

#include "spikeminer/core/error.hpp"
#include "spikeminer/graph/analytics.hpp"
#include "spikeminer/graph/gpma_view.cuh"
#include "spikeminer/graph/gpu_window_slots.hpp"

#include <algorithm>
#include <numeric>

namespace spikeminer::graph {
namespace {

using spikeminer::detail::allocate_or_oom;
using spikeminer::detail::check_launch;
using spikeminer::detail::DeviceBuffer;
using spikeminer::detail::download;
using spikeminer::detail::upload;

constexpr unsigned kWarp = 32;
constexpr unsigned kAllLanes = 0xffffffffU;
constexpr unsigned kMostWords = GpuWindowSlots::kMostActive / kWarp;
constexpr unsigned kMostDepth = GpuWindowSlots::kMostDepth;
constexpr std::size_t kCliqueWords = GpuWindowSlots::kCliqueWords;
constexpr std::uint32_t kNone = ~std::uint32_t{0};

enum SlotStatus : std::uint32_t { kRead = 0, kTooLarge = 1 };

struct DeviceReading {
    std::uint32_t components;
    std::uint32_t largest;
    std::uint32_t most_central;  // kNone without edges
};

__device__ unsigned warp_sum(unsigned x) {
    for (unsigned offset = kWarp / 2; offset != 0; offset /= 2) x += __shfl_xor_sync(kAllLanes, x, offset);
    return x;
}

// Components and PageRank of slot blockIdx.x, as connected_components and pagerank
// (analytics.hpp) give them: the sums PageRank's result depends on (the dangling rank,
// the change) are taken in vertex order by lane 0, and each vertex's new rank adds its
// neighbours' shares in their order, so that the ranks are the CPU's to the bit.
__global__ void slot_readings_kernel(GpmaView view, Vertex n, PageRankOptions options, double* rank_all, double* next_all,
                                     std::uint32_t* degree_all, Vertex* parent_all, DeviceReading* out) {
    const unsigned lane = threadIdx.x;
    const std::size_t s = blockIdx.x;
    const Vertex first = static_cast<Vertex>(s * n);
    double* rank = rank_all + s * n;
    double* next = next_all + s * n;
    std::uint32_t* degree = degree_all + s * n;
    Vertex* parent = parent_all + s * n;
    bool edges = false;
    for (Vertex v = lane; v < n; v += kWarp) {
        degree[v] = graph::degree(view, first + v);
        rank[v] = __ddiv_rn(1.0, static_cast<double>(n));
        parent[v] = v;
        edges = edges || degree[v] != 0;
    }
    edges = __any_sync(kAllLanes, edges);
    __syncwarp();
    DeviceReading reading{0, 0, kNone};
    if (lane == 0) {
        const auto root = [parent](Vertex v) {
            while (parent[v] != v) v = parent[v] = parent[parent[v]];
            return v;
        };
        for (Vertex v = 0; v < n; ++v) {
            for_each_neighbor(view, first + v, [&](Vertex t, std::uint64_t) {
                const Vertex a = root(v);
                const Vertex b = root(t - first);
                if (a != b) parent[max(a, b)] = min(a, b);
            });
        }
        auto* size = reinterpret_cast<std::uint32_t*>(next);  // free until PageRank
        for (Vertex v = 0; v < n; ++v) size[v] = 0;
        for (Vertex v = 0; v < n; ++v) ++size[root(v)];
        for (Vertex v = 0; v < n; ++v) {
            if (size[v] < 2) continue;
            ++reading.components;
            reading.largest = max(reading.largest, size[v]);
        }
    }
    __syncwarp();
    if (edges) {
        const double damping = options.damping;
        const double count = static_cast<double>(n);
        for (unsigned iteration = 0; iteration < options.max_iterations; ++iteration) {
            double base = 0;
            if (lane == 0) {
                double dangling = 0;
                for (Vertex v = 0; v < n; ++v) {
                    if (degree[v] == 0) dangling = __dadd_rn(dangling, rank[v]);
                }
                base = __dadd_rn(__ddiv_rn(__dadd_rn(1.0, -damping), count), __ddiv_rn(__dmul_rn(damping, dangling), count));
            }
            base = __shfl_sync(kAllLanes, base, 0);
            for (Vertex t = lane; t < n; t += kWarp) {
                double sum = base;
                for_each_neighbor(view, first + t, [&](Vertex v, std::uint64_t) {
                    const Vertex u = v - first;
                    sum = __dadd_rn(sum, __ddiv_rn(__dmul_rn(damping, rank[u]), static_cast<double>(degree[u])));
                });
                next[t] = sum;
            }
            __syncwarp();
            double change = 0;
            if (lane == 0) {
                for (Vertex v = 0; v < n; ++v) change = __dadd_rn(change, fabs(__dadd_rn(next[v], -rank[v])));
            }
            change = __shfl_sync(kAllLanes, change, 0);
            double* swap = rank;
            rank = next;
            next = swap;
            __syncwarp();
            if (change < options.tolerance) break;
        }
        if (lane == 0) {
            double highest = rank[0];
            for (Vertex v = 1; v < n; ++v) highest = fmax(highest, rank[v]);
            const double bar = __dmul_rn(highest, __dadd_rn(1.0, -1e-6));
            Vertex v = 0;
            while (rank[v] < bar) ++v;
            reading.most_central = v;
        }
    }
    if (lane == 0) out[s] = reading;
}

// The vertex of P ∪ X with the most neighbours in P (Tomita's pivot); C becomes P less
// the pivot's neighbours: the branches to take.
__device__ void choose_pivot(const std::uint32_t* p, const std::uint32_t* x, std::uint32_t* c, const std::uint32_t* adjacency,
                             unsigned words, unsigned count) {
    const unsigned lane = threadIdx.x;
    int best = -1;
    unsigned best_u = 0;
    for (unsigned u = lane; u < count; u += kWarp) {
        if (((p[u / kWarp] | x[u / kWarp]) & (1U << (u % kWarp))) == 0) continue;
        const std::uint32_t* row = adjacency + static_cast<std::size_t>(u) * words;
        int shared = 0;
        for (unsigned w = 0; w < words; ++w) shared += __popc(p[w] & row[w]);
        if (shared > best) {
            best = shared;
            best_u = u;
        }
    }
    for (unsigned offset = kWarp / 2; offset != 0; offset /= 2) {
        const int other = __shfl_down_sync(kAllLanes, best, offset);
        const unsigned other_u = __shfl_down_sync(kAllLanes, best_u, offset);
        if (other > best || (other == best && other_u < best_u)) {
            best = other;
            best_u = other_u;
        }
    }
    best_u = __shfl_sync(kAllLanes, best_u, 0);
    if (lane < words) c[lane] = p[lane] & ~adjacency[static_cast<std::size_t>(best_u) * words + lane];
    __syncwarp();
}

// The maximal cliques of at least min_size vertices of slot slots[blockIdx.x]: its
// vertices with an edge numbered in order, their adjacency as bitsets, and Bron-Kerbosch
// with Tomita's pivot on an explicit stack, the warp's lanes sharing each set's words.
__global__ void slot_cliques_kernel(GpmaView view, Vertex n, const std::uint32_t* slots, unsigned words, std::uint32_t min_size,
                                    std::uint32_t* local_all, std::uint32_t* adjacency_all, std::uint32_t* out_all, std::uint32_t* used,
                                    std::uint32_t* status) {
    extern __shared__ std::uint32_t frames[];  // P, X and C of each depth, then R
    __shared__ Vertex active[GpuWindowSlots::kMostActive];
    const unsigned lane = threadIdx.x;
    const std::uint32_t s = slots[blockIdx.x];
    const Vertex first = s * n;
    std::uint32_t* local = local_all + static_cast<std::size_t>(blockIdx.x) * n;
    std::uint32_t* adjacency = adjacency_all + static_cast<std::size_t>(blockIdx.x) * GpuWindowSlots::kMostActive * words;
    std::uint32_t* out = out_all + static_cast<std::size_t>(s) * kCliqueWords;
    std::uint32_t* p_all = frames;
    std::uint32_t* x_all = frames + kMostDepth * words;
    std::uint32_t* c_all = x_all + kMostDepth * words;
    std::uint32_t* r = c_all + kMostDepth * words;

    unsigned count = 0;
    for (Vertex chunk = 0; chunk < n; chunk += kWarp) {
        const Vertex v = chunk + lane;
        const bool has = v < n && graph::degree(view, first + v) != 0;
        const unsigned mask = __ballot_sync(kAllLanes, has);
        const unsigned at = count + __popc(mask & ((1U << lane) - 1));
        if (has) {
            if (at < GpuWindowSlots::kMostActive) active[at] = v;
            local[v] = at;
        }
        count += __popc(mask);
    }
    if (count > words * kWarp) {
        if (lane == 0) status[s] = kTooLarge;
        return;
    }
    __syncwarp();
    for (unsigned i = lane; i < count; i += kWarp) {
        std::uint32_t* row = adjacency + static_cast<std::size_t>(i) * words;
        for (unsigned w = 0; w < words; ++w) row[w] = 0;
        for_each_neighbor(view, first + active[i], [&](Vertex t, std::uint64_t) {
            const std::uint32_t j = local[t - first];
            row[j / kWarp] |= 1U << (j % kWarp);
        });
    }
    if (lane < words) {
        const unsigned whole = count / kWarp;
        const unsigned rest = count % kWarp;
        p_all[lane] = lane < whole ? kAllLanes : (lane == whole && rest != 0 ? (1U << rest) - 1 : 0);
        x_all[lane] = 0;
    }
    __syncwarp();
    choose_pivot(p_all, x_all, c_all, adjacency, words, count);
    std::uint32_t written = 0;
    std::uint32_t result = kRead;
    int depth = 0;
    while (depth >= 0) {
        std::uint32_t* p = p_all + depth * words;
        std::uint32_t* x = x_all + depth * words;
        std::uint32_t* c = c_all + depth * words;
        const std::uint32_t word = lane < words ? c[lane] : 0;
        const unsigned nonzero = __ballot_sync(kAllLanes, word != 0);
        if (nonzero == 0) {
            --depth;
            continue;
        }
        const unsigned at = __ffs(nonzero) - 1;
        const std::uint32_t taken = __shfl_sync(kAllLanes, word, at);
        const unsigned bit = __ffs(taken) - 1;
        const unsigned v = at * kWarp + bit;
        __syncwarp();
        if (lane == at) {
            c[at] = taken & ~(1U << bit);
            p[at] &= ~(1U << bit);
            x[at] |= 1U << bit;
        }
        if (lane == 0) r[depth] = v;
        __syncwarp();
        const std::uint32_t* row = adjacency + static_cast<std::size_t>(v) * words;
        const std::uint32_t next_p = lane < words ? p[lane] & row[lane] : 0;
        const std::uint32_t next_x = lane < words ? x[lane] & row[lane] : 0;
        const unsigned candidates = warp_sum(__popc(next_p));
        const bool excluded = __ballot_sync(kAllLanes, next_x != 0) != 0;
        const unsigned size = static_cast<unsigned>(depth) + 1;
        if (candidates == 0) {
            if (excluded || size < min_size) continue;
            if (written + 1 + size > kCliqueWords) {
                result = kTooLarge;
                break;
            }
            if (lane == 0) out[written] = size;
            for (unsigned i = lane; i < size; i += kWarp) out[written + 1 + i] = active[r[i]];
            written += 1 + size;
            continue;
        }
        if (size + candidates < min_size) continue;
        if (depth + 1 >= static_cast<int>(kMostDepth)) {
            result = kTooLarge;
            break;
        }
        ++depth;
        if (lane < words) {
            p_all[depth * words + lane] = next_p;
            x_all[depth * words + lane] = next_x;
        }
        __syncwarp();
        choose_pivot(p_all + depth * words, x_all + depth * words, c_all + depth * words, adjacency, words, count);
    }
    if (lane == 0) {
        used[s] = written;
        status[s] = result;
    }
}

// Slot slots[k]'s words (k = blockIdx.x) to `to` at [offsets[k], offsets[k + 1]).
__global__ void gather_cliques_kernel(const std::uint32_t* slots, const std::uint32_t* out_all, const std::uint64_t* offsets,
                                      std::uint32_t* to) {
    const std::uint32_t* from = out_all + static_cast<std::size_t>(slots[blockIdx.x]) * kCliqueWords;
    const std::uint64_t begin = offsets[blockIdx.x];
    const std::uint64_t length = offsets[blockIdx.x + 1] - begin;
    for (std::uint64_t i = threadIdx.x; i < length; i += blockDim.x) to[begin + i] = from[i];
}

}  // namespace

struct GpuWindowSlots::State {
    Vertex n;
    std::size_t slots;
    GpuPma pma;
    std::vector<std::vector<UndirectedEdge>> held;  // each slot's graph
    std::vector<std::uint32_t> active;              // each slot's vertices with an edge
    DeviceBuffer<double> rank;
    DeviceBuffer<double> next;
    DeviceBuffer<std::uint32_t> degree;
    DeviceBuffer<Vertex> parent;
    DeviceBuffer<std::uint32_t> local;
    DeviceBuffer<std::uint32_t> adjacency;
    DeviceBuffer<std::uint32_t> cliques;
    DeviceBuffer<std::uint32_t> used;
    DeviceBuffer<std::uint32_t> status;

    State(Vertex vertices, std::size_t count)
        : n(vertices), slots(count), pma(static_cast<Vertex>(vertices * count)), held(count), active(count, 0) {
        const std::size_t cells = count * vertices;
        rank = allocate_or_oom<double>(cells, "window slots' PageRank");
        next = allocate_or_oom<double>(cells, "window slots' PageRank");
        degree = allocate_or_oom<std::uint32_t>(cells, "window slots' degrees");
        parent = allocate_or_oom<Vertex>(cells, "window slots' components");
        local = allocate_or_oom<std::uint32_t>(cells, "window slots' cliques");
        adjacency = allocate_or_oom<std::uint32_t>(count * kMostActive * kMostWords, "window slots' cliques");
        cliques = allocate_or_oom<std::uint32_t>(count * kCliqueWords, "window slots' cliques");
        used = allocate_or_oom<std::uint32_t>(count, "window slots' cliques");
        status = allocate_or_oom<std::uint32_t>(count, "window slots' cliques");
    }
};

GpuWindowSlots::GpuWindowSlots(Vertex n, std::size_t slots) {
    if (n == 0 || slots == 0 || static_cast<std::uint64_t>(n) * slots >= 0xffffffffULL) {
        throw Error("window slots: " + std::to_string(slots) + " slots of " + std::to_string(n) + " vertices do not fit 32-bit vertex ids");
    }
    state_ = std::make_unique<State>(n, slots);
}

GpuWindowSlots::~GpuWindowSlots() = default;

std::size_t GpuWindowSlots::slots() const { return state_->slots; }
const GpuPma& GpuWindowSlots::structure() const { return state_->pma; }

void GpuWindowSlots::assign(std::span<const std::span<const UndirectedEdge>> graphs) {
    State& st = *state_;
    if (graphs.size() > st.slots) throw Error("window slots: more graphs than slots");
    std::vector<EdgeRef> erase;
    std::vector<EdgeUpdate> insert;
    std::vector<EdgeUpdate> update;
    std::vector<std::uint32_t> seen(st.n, kNone);
    for (std::size_t i = 0; i < graphs.size(); ++i) {
        const Vertex first = static_cast<Vertex>(i * st.n);
        std::uint32_t active = 0;
        for (const UndirectedEdge& e : graphs[i]) {
            check_edge(e.a, e.b, st.n);
            for (const Vertex v : {e.a, e.b}) {
                if (seen[v] != i) ++active;
                seen[v] = static_cast<std::uint32_t>(i);
            }
        }
        edge_changes(
            st.held[i], graphs[i],
            [&](const UndirectedEdge& e) {
                erase.push_back({first + e.a, first + e.b});
                erase.push_back({first + e.b, first + e.a});
            },
            [&](const UndirectedEdge& e) {
                insert.push_back({first + e.a, first + e.b, e.weight});
                insert.push_back({first + e.b, first + e.a, e.weight});
            },
            [&](const UndirectedEdge& e) {
                update.push_back({first + e.a, first + e.b, e.weight});
                update.push_back({first + e.b, first + e.a, e.weight});
            });
        st.held[i].assign(graphs[i].begin(), graphs[i].end());
        st.active[i] = active;
    }
    st.pma.erase_edges(erase);
    st.pma.insert_edges(insert);
    st.pma.update_values(update);
}

std::vector<SmallGraphReading> GpuWindowSlots::read(std::size_t count) const {
    const State& st = *state_;
    count = std::min(count, st.slots);
    if (count == 0) return {};
    const GpmaView view = st.pma.view();
    DeviceBuffer<DeviceReading> out = allocate_or_oom<DeviceReading>(count, "window slots' readings");
    slot_readings_kernel<<<static_cast<unsigned>(count), kWarp>>>(view, st.n, PageRankOptions{}, st.rank.get(), st.next.get(), st.degree.get(),
                                                                  st.parent.get(), out.get());
    check_launch();
    const std::vector<DeviceReading> got = download(out.get(), count);
    std::vector<SmallGraphReading> readings(count);
    for (std::size_t i = 0; i < count; ++i) {
        readings[i].components = got[i].components;
        readings[i].largest_component = got[i].largest;
        if (got[i].most_central != kNone) readings[i].most_central = got[i].most_central;
    }
    return readings;
}

std::vector<std::optional<std::vector<std::vector<Vertex>>>> GpuWindowSlots::cliques(std::size_t count, std::size_t min_size) const {
    const State& st = *state_;
    if (min_size < 2) throw Error("window slots: cliques of at least 2 vertices");
    count = std::min(count, st.slots);
    std::vector<std::optional<std::vector<std::vector<Vertex>>>> result(count);
    std::vector<std::uint32_t> searched;
    std::uint32_t most = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (st.active[i] == 0) {
            result[i].emplace();  // no edge, no clique of two or more
        } else if (st.active[i] <= kMostActive) {
            searched.push_back(static_cast<std::uint32_t>(i));
            most = std::max(most, st.active[i]);
        }
    }
    if (searched.empty()) return result;
    const unsigned words = (most + kWarp - 1) / kWarp;
    const GpmaView view = st.pma.view();
    const DeviceBuffer<std::uint32_t> slots = upload(searched, "window slots' cliques");
    const std::size_t shared = (3 * kMostDepth * words + kMostDepth) * sizeof(std::uint32_t);
    const auto grid = static_cast<unsigned>(searched.size());
    slot_cliques_kernel<<<grid, kWarp, shared>>>(view, st.n, slots.get(), words, static_cast<std::uint32_t>(std::min<std::size_t>(min_size, kNone)),
                                                 st.local.get(), st.adjacency.get(), st.cliques.get(), st.used.get(), st.status.get());
    check_launch();
    const std::vector<std::uint32_t> used = download(st.used.get(), count);
    const std::vector<std::uint32_t> status = download(st.status.get(), count);
    std::vector<std::uint64_t> offsets(searched.size() + 1, 0);
    for (std::size_t k = 0; k < searched.size(); ++k) {
        offsets[k + 1] = offsets[k] + (status[searched[k]] == kRead ? used[searched[k]] : 0);
    }
    const DeviceBuffer<std::uint64_t> at = upload(offsets, "window slots' cliques");
    DeviceBuffer<std::uint32_t> packed = allocate_or_oom<std::uint32_t>(offsets.back(), "window slots' cliques");
    gather_cliques_kernel<<<grid, 128>>>(slots.get(), st.cliques.get(), at.get(), packed.get());
    check_launch();
    const std::vector<std::uint32_t> words_back = download(packed.get(), offsets.back());
    for (std::size_t k = 0; k < searched.size(); ++k) {
        const std::uint32_t s = searched[k];
        if (status[s] != kRead) continue;
        std::vector<std::vector<Vertex>>& list = result[s].emplace();
        for (std::uint64_t p = offsets[k]; p < offsets[k + 1];) {
            const std::uint32_t size = words_back[p];
            std::vector<Vertex>& clique = list.emplace_back(words_back.begin() + static_cast<std::ptrdiff_t>(p + 1),
                                                            words_back.begin() + static_cast<std::ptrdiff_t>(p + 1 + size));
            std::sort(clique.begin(), clique.end());
            p += 1 + size;
        }
        std::sort(list.begin(), list.end());
    }
    return result;
}

}  // namespace spikeminer::graph
