// Maximal cliques on the CPU (Eppstein–Löffler–Strash): vertices in degeneracy order; the
// subproblem of vertex v has its later neighbours as candidates P and its earlier ones as
// excluded X, so each maximal clique is found once, from its earliest vertex. A subproblem
// lives on bitsets over its own vertices (at most the degeneracy in P, the degree in all),
// and Bron–Kerbosch with Tomita's pivot (the vertex of P ∪ X with most neighbours in P)
// branches only on P minus the pivot's neighbours. Candidates are numbered first, so P
// only ever holds bits in the first p_words_ words: pivot counts and P's intersections
// read those alone, and an excluded vertex's row holds only them (on a hub of a sparse
// graph, degree in the thousands and degeneracy in the tens, that is a 16-fold saving).
#include "spikeminer/core/error.hpp"
#include "spikeminer/core/first_failure.hpp"
#include "../clique_engines.hpp"
#include "../tuning.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <optional>
#include <span>

namespace spikeminer::graph {
namespace {

using Word = std::uint64_t;

// Each vertex's later neighbours in the degeneracy order (at most the degeneracy each),
// in that order, built by `workers` threads (count, scan, fill, sort).
class LaterNeighbours {
public:
    LaterNeighbours(const Graph& graph, const DegeneracyOrder& order, int workers) : order_(order) {
        const auto n = static_cast<std::int64_t>(graph.num_vertices());
        const auto later = [&](Vertex v, Vertex u) { return order.position[u] > order.position[v]; };
        offsets_.assign(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for schedule(static) num_threads(workers)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto v = static_cast<Vertex>(i);
            const auto list = graph.neighbors(v);
            offsets_[v + 1] = static_cast<std::uint64_t>(std::count_if(list.begin(), list.end(), [&](Vertex u) { return later(v, u); }));
        }
        for (std::size_t v = 0; v < static_cast<std::size_t>(n); ++v) offsets_[v + 1] += offsets_[v];
        targets_.resize(offsets_.back());
#pragma omp parallel for schedule(static) num_threads(workers)
        for (std::int64_t i = 0; i < n; ++i) {
            const auto v = static_cast<Vertex>(i);
            const auto list = graph.neighbors(v);
            const auto first = targets_.begin() + static_cast<std::ptrdiff_t>(offsets_[v]);
            const auto last = std::copy_if(list.begin(), list.end(), first, [&](Vertex u) { return later(v, u); });
            std::sort(first, last, [&](Vertex a, Vertex b) { return order.position[a] < order.position[b]; });
        }
    }
    [[nodiscard]] std::span<const Vertex> of(Vertex v) const {
        return {targets_.data() + offsets_[v], static_cast<std::size_t>(offsets_[v + 1] - offsets_[v])};
    }
    /// v's later neighbours that come after position `after`.
    [[nodiscard]] std::span<const Vertex> of(Vertex v, std::size_t after) const {
        const std::span<const Vertex> all = of(v);
        const auto first = std::partition_point(all.begin(), all.end(), [&](Vertex u) { return order_.position[u] <= after; });
        return {first, all.end()};
    }

private:
    const DegeneracyOrder& order_;
    std::vector<std::uint64_t> offsets_;
    std::vector<Vertex> targets_;
};

// Hands out the subproblems, latest in the order first, in chunks of about equal
// estimated cost (later neighbours squared, plus the degree) through one atomic cursor
// over the summed cost. A heavy subproblem (the densest core's, at the end of the order
// and next to each other: facebook's 70 from position 3860 hold most of the work, up to
// 1.6 s each) is a chunk alone, so no thread gets several (16 threads took 20 s with
// fixed chunks of 16); light ones share chunks (on the sparse SNAP graphs a subproblem
// takes about 1 us, and a shared atomic a vertex had 16 threads queue on its cache line).
class CostChunks {
public:
    CostChunks(const Graph& graph, const DegeneracyOrder& order, const LaterNeighbours& later, int workers)
        : order_(order), start_(order.order.size() + 1, 0) {
        const std::size_t n = order.order.size();
        for (std::size_t i = 0; i < n; ++i) {
            const Vertex v = order.order[n - 1 - i];
            const std::uint64_t candidates = later.of(v).size();
            start_[i + 1] = start_[i] + candidates * candidates + graph.degree(v) + 1;
        }
        step_ = std::max<std::uint64_t>(1, start_.back() / (static_cast<std::uint64_t>(workers) * kChunksPerWorker));
    }

    /// The next chunk's vertices, or an empty span when none is left.
    std::span<const Vertex> next() {
        const auto n = static_cast<std::ptrdiff_t>(order_.order.size());
        for (;;) {
            const std::uint64_t from = cursor_.fetch_add(step_, std::memory_order_relaxed);
            if (from >= start_.back()) return {};
            // The vertices whose cost starts in [from, from + step): each in exactly one chunk.
            const auto starts = std::span<const std::uint64_t>(start_).first(static_cast<std::size_t>(n));
            const auto first = std::lower_bound(starts.begin(), starts.end(), from) - starts.begin();
            const auto last = std::lower_bound(starts.begin(), starts.end(), from + step_) - starts.begin();
            // Latest first: position i of the sequence is order[n - 1 - i].
            if (first < last) return {order_.order.data() + (n - last), static_cast<std::size_t>(last - first)};
        }
    }

private:
    static constexpr std::uint64_t kChunksPerWorker = 64;
    const DegeneracyOrder& order_;
    std::vector<std::uint64_t> start_;  // summed cost before each vertex of the sequence
    std::uint64_t step_ = 1;
    std::atomic<std::uint64_t> cursor_{0};
};

// One thread's search state, reused across its subproblems.
class Subproblem {
public:
    Subproblem(const Graph& graph, const DegeneracyOrder& order, const LaterNeighbours& later, const CliqueOptions& options)
        : graph_(graph), order_(order), later_(later), options_(options), local_(graph.num_vertices(), kNone) {}

    // Enumerates the maximal cliques whose earliest vertex (in the order) is v.
    template <typename Report>
    void solve(Vertex v, const std::atomic<bool>& stop, Report&& report) {
        const auto position = order_.position[v];
        const std::span<const Vertex> later = later_.of(v);
        members_.assign(later.begin(), later.end());
        const std::size_t candidates = members_.size();
        if (1 + candidates < options_.min_size) return;
        if (candidates == 0) {  // {v} alone: maximal only when v has no neighbour at all
            if (graph_.neighbors(v).empty()) {
                clique_.assign(1, v);
                report(clique_);
            }
            return;
        }
        for (const Vertex u : graph_.neighbors(v)) {
            if (order_.position[u] < position) members_.push_back(u);
        }
        const std::size_t d = members_.size();
        words_ = (d + 63) / 64;
        p_words_ = std::max<std::size_t>(1, (candidates + 63) / 64);
        candidates_ = candidates;
        for (std::size_t i = 0; i < d; ++i) local_[members_[i]] = static_cast<Vertex>(i);
        // Rows of the candidates in full; of an excluded vertex only its candidate columns
        // are ever read (pivot counts). Every such pair is found from its earlier end's
        // later neighbours: two candidates from either's list, a candidate and an
        // excluded vertex from the excluded one's (it comes before v, so before any
        // candidate: only the part of its list after v). Those lists hold at most the
        // degeneracy each, where a candidate's whole list can run to thousands (a hub
        // seen from its many sparse neighbours).
        adjacency_.assign(candidates * words_ + (d - candidates) * p_words_, 0);
        for (std::size_t i = 0; i < d; ++i) {
            for (const Vertex w : i < candidates ? later_.of(members_[i]) : later_.of(members_[i], position)) {
                const Vertex j = local_[w];
                if (j == kNone || j >= candidates) continue;  // not a member, or excluded: no row needs it
                row(i)[j / 64] |= Word{1} << (j % 64);
                row(j)[i / 64] |= Word{1} << (i % 64);
            }
        }
        for (const Vertex u : members_) local_[u] = kNone;
        if (arena_.size() < 2 * (candidates + 2)) arena_.resize(2 * (candidates + 2));  // depth <= |P| + 1
        std::vector<Word>& p = level(0, 0);
        std::vector<Word>& x = level(0, 1);
        std::fill(p.begin(), p.end(), 0);
        std::fill(x.begin(), x.end(), 0);
        for (std::size_t i = 0; i < d; ++i) (i < candidates ? p : x)[i / 64] |= Word{1} << (i % 64);
        clique_.assign(1, v);
        // One word of candidates (a degeneracy up to 64: every small sparse graph) is the
        // common case; its width known at compile time, the set loops are single operations.
        if (p_words_ == 1) {
            expand<1>(0, stop, report);
        } else {
            expand<0>(0, stop, report);
        }
    }

private:
    static constexpr Vertex kNone = ~Vertex{0};

    // P (which = 0) or X (which = 1) at `depth`; the arena is sized in solve() for the
    // deepest possible recursion, so references into it stay valid.
    std::vector<Word>& level(std::size_t depth, int which) {
        std::vector<Word>& bits = arena_[2 * depth + static_cast<std::size_t>(which)];
        bits.resize(std::max(words_, p_words_));
        return bits;
    }

    // Where excluded vertex j's row (p_words_ wide) starts.
    std::size_t excluded_row(std::size_t j) const { return candidates_ * words_ + (j - candidates_) * p_words_; }
    // Vertex i's row: all words_ for a candidate; the first p_words_ for any vertex.
    Word* row(std::size_t i) { return adjacency_.data() + (i < candidates_ ? i * words_ : excluded_row(i)); }
    const Word* row(std::size_t i) const { return adjacency_.data() + (i < candidates_ ? i * words_ : excluded_row(i)); }

    // Words of a bitset over the candidates: kPWords, or p_words_ when that is 0.
    template <std::size_t kPWords>
    std::size_t candidate_words() const {
        if constexpr (kPWords > 0) return kPWords;
        return p_words_;
    }

    template <std::size_t kPWords, typename Report>
    void expand(std::size_t depth, const std::atomic<bool>& stop, Report& report) {
        const std::size_t p_words = candidate_words<kPWords>();
        if (stop.load(std::memory_order_relaxed)) return;
        std::vector<Word>& p = arena_[2 * depth];
        std::vector<Word>& x = arena_[2 * depth + 1];
        std::size_t p_count = 0;
        for (std::size_t w = 0; w < p_words; ++w) p_count += static_cast<std::size_t>(std::popcount(p[w]));
        if (p_count == 0) {
            bool x_empty = true;
            for (std::size_t w = 0; w < words_ && x_empty; ++w) x_empty = x[w] == 0;
            if (x_empty && clique_.size() >= options_.min_size) report(clique_);
            return;
        }
        if (clique_.size() + p_count < options_.min_size) return;
        // Tomita's pivot: the vertex of P ∪ X with the most neighbours in P.
        std::size_t pivot = 0;
        std::size_t best = 0;
        bool have_pivot = false;
        for (std::size_t w = 0; w < words_; ++w) {
            for (Word bits = (w < p_words ? p[w] : 0) | x[w]; bits != 0; bits &= bits - 1) {
                const std::size_t u = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                const Word* r = row(u);
                std::size_t in_p = 0;
                for (std::size_t k = 0; k < p_words; ++k) in_p += static_cast<std::size_t>(std::popcount(p[k] & r[k]));
                if (!have_pivot || in_p > best) {
                    pivot = u;
                    best = in_p;
                    have_pivot = true;
                }
            }
        }
        std::vector<Word>& next_p = level(depth + 1, 0);
        std::vector<Word>& next_x = level(depth + 1, 1);
        for (std::size_t w = 0; w < p_words; ++w) {
            Word branch = p[w] & ~row(pivot)[w];
            while (branch != 0) {
                const std::size_t u = w * 64 + static_cast<std::size_t>(std::countr_zero(branch));
                branch &= branch - 1;
                const Word* r = row(u);  // a candidate's: all words_
                for (std::size_t k = 0; k < p_words; ++k) next_p[k] = p[k] & r[k];
                for (std::size_t k = 0; k < words_; ++k) next_x[k] = x[k] & r[k];
                clique_.push_back(members_[u]);
                expand<kPWords>(depth + 1, stop, report);
                clique_.pop_back();
                p[u / 64] &= ~(Word{1} << (u % 64));
                x[u / 64] |= Word{1} << (u % 64);
            }
        }
    }

    const Graph& graph_;
    const DegeneracyOrder& order_;
    const LaterNeighbours& later_;
    const CliqueOptions& options_;
    std::vector<Vertex> local_;    // global vertex -> index in members_, kNone elsewhere
    std::vector<Vertex> members_;  // the subproblem's vertices: candidates, then excluded
    std::size_t words_ = 0;       // bitset width over all members
    std::size_t p_words_ = 0;     // ... over the candidates (P never reaches past them)
    std::size_t candidates_ = 0;
    std::vector<Word> adjacency_;  // candidate rows (words_ wide), then excluded rows (p_words_ wide)
    std::vector<std::vector<Word>> arena_;  // P and X per depth
    std::vector<Vertex> clique_;
};

// One thread's cliques on their way to the sink: each sorted into a buffer, handed over a
// batch at a time (a lock per clique made 16 threads queue on it: listing took 40x
// counting on the H200 host); none after any thread's sink call has failed.
class SinkBatch {
public:
    SinkBatch(const CliqueBatchSink& sink, std::atomic<bool>& failed) : sink_(sink), failed_(failed) {}

    void add(std::span<const Vertex> clique) {
        const std::size_t at = ids_.size();
        ids_.insert(ids_.end(), clique.begin(), clique.end());
        std::sort(ids_.begin() + static_cast<std::ptrdiff_t>(at), ids_.end());
        offsets_.push_back(ids_.size());
        if (ids_.size() >= kBatchIds) flush();
    }

    void flush() {
        if (offsets_.size() == 1) return;
        if (!failed_.load()) {
            try {
                sink_(CliqueBatch{ids_, offsets_});
            } catch (...) {
                failed_ = true;
                throw;
            }
        }
        ids_.clear();
        offsets_.resize(1);
    }

private:
    static constexpr std::size_t kBatchIds = 1 << 14;
    const CliqueBatchSink& sink_;
    std::atomic<bool>& failed_;
    std::vector<Vertex> ids_;
    std::vector<std::size_t> offsets_{0};
};

}  // namespace

namespace detail {

CliqueSummary enumerate_on_cpu(const Graph& graph, const DegeneracyOrder& order, const CliqueOptions& options,
                               const CliqueBatchSink& sink) {
    const Vertex n = graph.num_vertices();
    // An explicit thread count is always honoured.
    const bool small = n < tuning::kSmallGraph || graph.num_edges() < kOneThreadBelowEdges;
    const int workers = options.threads != 0 ? static_cast<int>(options.threads) : small ? 1 : omp_get_max_threads();
    CliqueSummary summary;
    std::mutex summary_mutex;
    std::atomic<bool> sink_failed{false};
    std::atomic<std::uint64_t> total{0};
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> done{0};
    // The first failure (the sink's, Cancelled from the progress, out of memory) stops
    // every thread and is rethrown after the parallel region.
    FirstFailure failure;
    if (options.progress != nullptr) options.progress->begin("enumerating maximal cliques", n);
    const LaterNeighbours later(graph, order, workers);
    CostChunks chunks(graph, order, later, workers);
#pragma omp parallel num_threads(workers)
    {
        std::optional<Subproblem> subproblem;
        std::vector<std::uint64_t> by_size;
        SinkBatch batch(sink, sink_failed);
        std::uint64_t mine = 0;
        const auto report = [&](const std::vector<Vertex>& clique) {
            if (options.limit != 0 && total.fetch_add(1) >= options.limit) {
                stop = true;
                return;
            }
            ++mine;
            if (by_size.size() <= clique.size()) by_size.resize(clique.size() + 1, 0);
            ++by_size[clique.size()];
            if (sink) batch.add(clique);
        };
        failure.run([&] { subproblem.emplace(graph, order, later, options); });
        while (!stop.load(std::memory_order_relaxed) && !failure.failed()) {
            const std::span<const Vertex> chunk = chunks.next();
            if (chunk.empty()) break;
            failure.run([&] {
                for (auto v = chunk.rbegin(); v != chunk.rend() && !stop.load(std::memory_order_relaxed); ++v) {
                    if (options.progress != nullptr) options.progress->check_cancelled();  // by every thread
                    subproblem->solve(*v, stop, report);
                }
                const std::uint64_t finished = done.fetch_add(chunk.size()) + chunk.size();
                if (options.progress != nullptr && omp_get_thread_num() == 0) options.progress->update(finished);
            });
            if (failure.failed()) stop = true;
        }
        if (!failure.failed()) failure.run([&] { batch.flush(); });
        failure.run([&] {
            const std::lock_guard lock(summary_mutex);
            summary.count += mine;
            if (summary.by_size.size() < by_size.size()) summary.by_size.resize(by_size.size(), 0);
            for (std::size_t k = 0; k < by_size.size(); ++k) summary.by_size[k] += by_size[k];
        });
    }
    failure.rethrow_if_failed();
    summary.stopped_at_limit = options.limit != 0 && total.load() > options.limit;
    if (options.progress != nullptr) options.progress->finish();
    return summary;
}

}  // namespace detail
}  // namespace spikeminer::graph
