// The GPU maximal clique search (after Almasri, Chang, El Hajj, Nagi, Xiong, Hwu,
// "Parallelizing Maximal Clique Enumeration on GPUs"), one persistent kernel:
//
// - The graph arrives relabelled by a degeneracy ordering, neighbour lists sorted, so a
//   vertex's later neighbours are the tail of its list.
// - Work items are first-level subtrees (L1: vertex v, candidates P = its later
//   neighbours, excluded X = its earlier ones) or second-level ones (L2: edge v<u,
//   R = {v,u}, P = common neighbours after u, X = common neighbours before u; plus the
//   vertices without later neighbours). Each maximal clique lies in exactly one item: the
//   one of its earliest vertex (and second earliest for L2).
// - A worker is a tile of G lanes (a whole warp by default; sub-warp partitioning with
//   4, 8 or 16: the host's choice, gpu_cliques.cu). It builds a binary-encoded
//   induced subgraph for its item: a bitset row over P for each vertex of P (partial,
//   IP) and, for the full variant (IPX), for each vertex of X as well; IP looks the
//   excluded vertices up in the graph's sorted lists instead.
// - It walks the subtree depth first with Tomita's pivot (the vertex of P ∪ X with most
//   neighbours in P; branches on P minus the pivot's neighbours). Per depth it keeps P,
//   X_P (the candidates moved to X, a bitset) and the pending branches; the original
//   excluded vertices X_X are one array, partitioned in place at each level (the kept
//   ones first, the level's length remembered): O(Δ + d²) words per worker. The hot
//   part, read at every node (the candidates' rows, the per-depth bitsets and lengths),
//   lives in shared memory when it fits without costing occupancy (clique_layout.hpp).
// - Worker list: a worker with pending branches and |P| >= a threshold hands its next
//   branch to an idle worker when one is queued (worker_list.cuh).
// - Early termination from the pivot counts: a node ends when an excluded vertex sees
//   all of P, and reports R ∪ P at once when P is a clique (the CPU path does neither,
//   so its results check these shortcuts).
// - Listed cliques leave through the ring (clique_output.cuh) as the graph's vertex ids,
//   each sorted by its worker (as_vertex_ids), so the host only hands chunks on.
// - min_size prunes branches with |R| + |P| < min_size; a limit stops all workers once
//   reached (a global counter, only when a limit is set); cancellation is polled from
//   host memory.
#pragma once

#include "clique_params.cuh"
#include "tile_sets.cuh"

#include <cstdint>
#include <type_traits>

namespace spikeminer::graph::detail::gpu {

// kWords > 0: bitsets of exactly kWords words (1, 2, 4 or 8; from 4 words up rows are
// read with 16-byte loads), the node's P and X_P held in registers; 0: any width.
template <unsigned G, bool kFull, int kWords>
class Worker {
public:
    /// `hot`: this worker's part of the block's shared memory (candidate rows and the
    /// per-depth bitsets), or null to keep them in its global workspace.
    __device__ Worker(const Tile<G>& tile, const SearchParams& p, int id, Word* hot)
        : t_(tile), p_(p), id_(id), ws_(workspace_of(p, id)), words_(p.layout.words),
          lane0_(tile.thread_rank() == 0), hot_(hot != nullptr ? hot : ws_.hot()) {}

    /// Takes items until none is left, then (with the worker list) serves handed-over
    /// branches until every worker is idle; adds its counts to the totals.
    __device__ void run() {
        for (int k = static_cast<int>(t_.thread_rank()); k < p_.layout.hist_size(); k += static_cast<int>(G)) hist()[k] = 0;
        for (;;) {
            unsigned long long item = 0;
            if (lane0_) item = p_.item_offset + static_cast<unsigned long long>(atomicAdd(p_.next_item, 1U)) * p_.item_stride;
            item = t_.shfl(item, 0);
            if (item >= p_.num_items) break;
            if (!stopped(false)) search(load_item(static_cast<unsigned>(item)));
            int milestone = 0;  // every 64th item finished: progress to the host, its cancel read back
            if (lane0_) {
                const unsigned long long done = atomicAdd(p_.items_done, 1ULL) + 1;
                milestone = done % 64 == 0;
                if (milestone != 0) *p_.progress = done;
            }
            if (t_.shfl(milestone, 0) != 0) (void)stopped(true);
        }
        while (p_.use_worker_list) {
            int got = 0;
            if (lane0_) {
                p_.worker_list.enqueue(id_);
                while ((got = p_.worker_list.poll(id_)) == 0) __nanosleep(200);
                __threadfence();
            }
            got = t_.shfl(got, 0);
            t_.sync();
            if (got < 0) break;
            const int* h = ws_.header();
            search({h[0], h[1], h[2]});
        }
        finish();
    }

private:
    struct Subtree {
        int r;   // |R|, in clique()[0..r)
        int np;  // candidates, in pids()[0..np), sorted
        int nx;  // excluded, in xids()[0..nx)
    };

    // Writes item's R, P and X into the workspace.
    __device__ Subtree load_item(unsigned item) {
        const CsrView& g = p_.graph;
        const Vertex v = p_.item_first[item];
        const Vertex u = p_.item_second[item];
        const Vertex* a = g.list(v);
        const int deg = g.degree(v);
        Subtree s{};
        if (u == kNoVertex) {
            const int split = bound(a, deg, v, false);
            s = {1, deg - split, split};
            for (int i = static_cast<int>(t_.thread_rank()); i < deg; i += static_cast<int>(G)) {
                if (i < split) ws_.xids()[i] = a[i]; else ws_.pids()[i - split] = a[i];
            }
            if (lane0_) ws_.clique()[0] = v;
        } else {
            // The common neighbours: the shorter list's entries looked up in the longer
            // one (a hub's thousands of neighbours each searched for in a short list
            // took an eighth of blogcatalog's search). Candidates follow u in the sorted
            // list, the excluded precede it; v and u are never common neighbours (neither
            // is in its own list).
            const bool by_v = deg <= g.degree(u);
            const Vertex* shorter = by_v ? a : g.list(u);
            const int n = by_v ? deg : g.degree(u);
            const Vertex other = by_v ? u : v;
            const int split = bound(shorter, n, u, false);
            const auto id = [&](int j) { return shorter[j]; };
            s.r = 2;
            s.nx = compact(t_, split, [&](int j) { return g.adjacent(other, shorter[j]); }, id, ws_.xids());
            s.np = compact(t_, n - split, [&](int j) { return g.adjacent(other, shorter[split + j]); },
                           [&](int j) { return shorter[split + j]; }, ws_.pids());
            if (lane0_) {
                ws_.clique()[0] = v;
                ws_.clique()[1] = u;
            }
        }
        t_.sync();
        return s;
    }

    // Row i of the induced subgraph: which candidates vertex m is adjacent to (one lane).
    __device__ void build_row(Vertex m, Word* out_row, int np) const {
        const CsrView& g = p_.graph;
        const Vertex* nb = g.list(m);
        const int deg = g.degree(m);
        const Vertex* pids = ws_.pids();
        Word bits = 0;
        int filled = 0;  // words written
        const auto set = [&](int j) {
            while (filled < (j >> 5)) {
                out_row[filled++] = bits;
                bits = 0;
            }
            bits |= 1U << (j & 31);
        };
        if (deg > 8 * np) {
            for (int j = 0; j < np; ++j) {
                if (g.adjacent(m, pids[j])) set(j);
            }
        } else {
            int i = np == 0 ? deg : bound(nb, deg, pids[0], true);
            int j = 0;
            while (i < deg && j < np) {
                if (nb[i] < pids[j]) {
                    ++i;
                } else if (nb[i] > pids[j]) {
                    ++j;
                } else {
                    set(j);
                    ++i;
                    ++j;
                }
            }
        }
        while (filled < words()) {
            out_row[filled++] = bits;
            bits = 0;
        }
    }

    __device__ void search(Subtree s) {
        np_ = s.np;
        r0_ = s.r;
        const int rows = s.np + (kFull ? s.nx : 0);
        for (int i = static_cast<int>(t_.thread_rank()); i < rows; i += static_cast<int>(G)) {
            build_row(i < s.np ? ws_.pids()[i] : ws_.xids()[i - s.np], row(i), s.np);
        }
        for (int w = static_cast<int>(t_.thread_rank()); w < words(); w += static_cast<int>(G)) {
            const int bits = s.np - 32 * w;
            level(0, 0)[w] = bits >= 32 ? ~Word{0} : bits <= 0 ? 0 : (Word{1} << bits) - 1;
            level(0, 1)[w] = 0;
        }
        if constexpr (kFull) {
            for (int i = static_cast<int>(t_.thread_rank()); i < s.nx; i += static_cast<int>(G)) ws_.xx()[i] = i;
        }
        if (lane0_) xlen()[0] = s.nx;
        t_.sync();
        int depth = 0;
        int r = s.r;
        if (!enter(0, r)) return;
        // Whether a worker was idle at the last look, every 64 steps (a read of the list's
        // counters in L2; at every branch, with the checks before it, it cost 4 %).
        bool idle_seen = false;
        for (unsigned steps = 1;; ++steps) {
            if (steps % 1024 == 0 && stopped(steps % 65536 == 0)) return;
            if (p_.use_worker_list && steps % 64 == 0) {
                int idle = 0;
                if (lane0_) idle = p_.worker_list.has_idle();
                idle_seen = t_.shfl(idle, 0) != 0;
            }
            Word* pending = level(depth, 2);
            const int u = lowest_bit(t_, pending, words());
            if (u < 0) {
                if (depth == 0) return;
                --depth;
                --r;
                retire(depth, branch_at()[depth]);
                continue;
            }
            if (idle_seen && donate(depth, r, u)) {
                retire(depth, u);
                continue;
            }
            if (lane0_) branch_at()[depth] = u;
            make_child(depth, u);
            ++depth;
            ++r;
            if (!enter(depth, r)) {
                --depth;
                --r;
                retire(depth, u);
            }
        }
    }

    // u has been searched (or handed over): it moves from P to X_P at depth and is no
    // longer pending (cleared here rather than when taken: one write and sync fewer a branch).
    __device__ void retire(int depth, int u) {
        if (lane0_) {
            const Word bit = Word{1} << (u & 31);
            level(depth, 0)[u >> 5] &= ~bit;
            level(depth, 1)[u >> 5] |= bit;
            level(depth, 2)[u >> 5] &= ~bit;
        }
        t_.sync();
    }

    // Whether excluded entry e (an index into xids for IPX, a vertex for IP) is adjacent to candidate j.
    __device__ bool excluded_adjacent(int e, int j) const {
        if constexpr (kFull) return has_bit(row(np_ + e), j);
        return p_.graph.adjacent(static_cast<Vertex>(e), ws_.pids()[j]);
    }
    // The excluded array: indices into xids (IPX) or the vertices themselves (IP).
    __device__ int* excluded() const {
        if constexpr (kFull) return ws_.xx();
        return reinterpret_cast<int*>(ws_.xids());
    }
    __device__ Vertex excluded_vertex(int e) const {
        if constexpr (kFull) return ws_.xids()[e];
        return static_cast<Vertex>(e);
    }

    // The i-th vertex of R: the subtree's own R, then the branches taken (kept as
    // indices: writing the vertex at every branch cost a global load and store).
    __device__ Vertex member(int i) const {
        return i < r0_ ? ws_.clique()[i] : ws_.pids()[branch_at()[i - r0_]];
    }

    static constexpr int kCache = kWords > 0 ? kWords : 1;

    // Row i of the induced subgraph (candidates first, then, for IPX, the excluded).
    __device__ Word* row(int i) const {
        return i < np_ ? hot_ + static_cast<std::size_t>(i) * words() : ws_.row(i);
    }
    // P (which 0), X_P (1) or the pending branches (2) at depth.
    __device__ Word* level(int depth, int which) const {
        return hot_ + p_.layout.levels + (static_cast<std::size_t>(depth) * 3 + which) * words();
    }
    // The excluded array's length and the branch taken, per depth.
    __device__ int* xlen() const { return reinterpret_cast<int*>(hot_ + p_.layout.xlen); }
    __device__ int* branch_at() const { return reinterpret_cast<int*>(hot_ + p_.layout.branch_at); }
    // This worker's clique counts by size, since their last addition to the totals.
    __device__ unsigned* hist() const { return hot_ + p_.layout.hist; }
    static constexpr unsigned kHistFlush = 1U << 31;

    // Words per bitset: a constant when the width is fixed.
    __device__ int words() const {
        if constexpr (kWords > 0) return kWords;
        return words_;
    }
    static constexpr int kLanes = static_cast<int>(G);

    // |P ∩ row| by one lane; P in `cache` when the width is fixed.
    __device__ int common_with(const Word* P, const Word (&cache)[kCache], const Word* row) const {
        int c = 0;
        if constexpr (kWords >= 4) {
#pragma unroll
            for (int q = 0; q < kWords / 4; ++q) {
                const uint4 v = reinterpret_cast<const uint4*>(row)[q];
                c += __popc(cache[4 * q] & v.x) + __popc(cache[4 * q + 1] & v.y) + __popc(cache[4 * q + 2] & v.z) +
                     __popc(cache[4 * q + 3] & v.w);
            }
        } else if constexpr (kWords > 0) {
#pragma unroll
            for (int w = 0; w < kWords; ++w) c += __popc(cache[w] & row[w]);
        } else {
            c = count_common(P, row, words());
        }
        return c;
    }

    // |P ∩ N(x)| for an excluded vertex x of the partial variant, by one lane.
    __device__ int common_with_vertex(const Word* P, const Word (&cache)[kCache], int x) const {
        int c = 0;
        for (int w = 0; w < words(); ++w) {
            Word bits = 0;
            if constexpr (kWords > 0) {
#pragma unroll
                for (int k = 0; k < kWords; ++k) bits = k == w ? cache[k] : bits;
            } else {
                bits = P[w];
            }
            for (; bits != 0; bits &= bits - 1) c += excluded_adjacent(x, 32 * w + __ffs(bits) - 1);
        }
        return c;
    }

    // At a new node: reports the maximal clique it holds, if any, or picks the pivot and
    // the branches. False when there is nothing to branch on.
    __device__ bool enter(int depth, int r) {
        const int found = examine(depth, r);
        if (found > 0) report(r, found, found > r ? level(depth, 0) : nullptr);
        return found == 0;
    }

    // 0 when the node branches (its pending branches written); else the size of the one
    // maximal clique it holds (R when P and X are empty, R ∪ P when P is a clique that no
    // excluded vertex extends), or -1 for none. One report call site keeps the
    // search's registers within the 80 of six blocks an SM.
    __device__ int examine(int depth, int r) {
        const Word* P = level(depth, 0);
        const Word* XP = level(depth, 1);
        const int x_len = xlen()[depth];
        Word p_cache[kCache];
        Word xp_cache[kCache];
        int p_count = 0;
        bool xp_empty = true;
        if constexpr (kWords > 0) {
            Word any = 0;
#pragma unroll
            for (int w = 0; w < kWords; ++w) {
                p_cache[w] = P[w];
                xp_cache[w] = XP[w];
                p_count += __popc(p_cache[w]);
                any |= xp_cache[w];
            }
            xp_empty = any == 0;
        } else {
            p_count = count_bits(t_, P, words());
            if (p_count == 0) xp_empty = !any_bit(t_, XP, words());
        }
        if (p_count == 0) return x_len == 0 && xp_empty && r >= p_.min_size ? r : -1;
        if (r + p_count < p_.min_size) return -1;
        // Tomita's pivot: the vertex of P ∪ X with most neighbours in P.
        // The best (count, index) as one key; with a fixed width, count < 2^9 and index <
        // 2^23 (the host's condition for these kernels) share 32 bits: one tile reduction
        // instruction instead of a shuffle ladder.
        using Key = std::conditional_t<(kWords > 0), unsigned, unsigned long long>;
        constexpr int kIndexBits = kWords > 0 ? kPivotIndexBits : 32;
        Key best = 0;
        const auto consider = [&best](int c, int index) {
            best = max(best, (static_cast<Key>(c) << kIndexBits) | static_cast<Key>(index));
        };
        const int rank = static_cast<int>(t_.thread_rank());
        bool p_clique = true;  // whether each candidate this lane saw is adjacent to all others
        const auto consider_row = [&](int j, bool in_p) {
            const int c = common_with(P, p_cache, row(j));
            consider(c, j);
            p_clique = p_clique && (!in_p || c == p_count - 1);
        };
        if constexpr (kWords > 0) {
#pragma unroll
            for (int w = 0; w < kWords; ++w) {
                const Word candidates = p_cache[w] | xp_cache[w];
#pragma unroll
                for (int k = 0; k < 32 / kLanes; ++k) {
                    const int b = k * kLanes + rank;
                    if ((candidates >> b) & 1U) consider_row(32 * w + b, (p_cache[w] >> b) & 1U);
                }
            }
        } else {
            for (int j = rank; j < np_; j += kLanes) {
                const bool in_p = has_bit(P, j);
                if (in_p || has_bit(XP, j)) consider_row(j, in_p);
            }
        }
        const int* xs = excluded();
        for (int i = rank; i < x_len; i += kLanes) {
            if constexpr (kFull) {
                consider(common_with(P, p_cache, row(np_ + xs[i])), np_ + i);
            } else {
                consider(common_with_vertex(P, p_cache, xs[i]), np_ + i);
            }
        }
        best = cg::reduce(t_, best, cg::greater<Key>());
        // Early termination: an excluded vertex adjacent to all of P (a candidate has at
        // most |P| - 1 neighbours there) extends every clique of this subtree; else, when
        // P is a clique, R ∪ P is the subtree's one maximal clique (without it, a chain of
        // |P| single-branch nodes). Both tests read the pivot counts.
        const int most = static_cast<int>(best >> kIndexBits);
        if (most == p_count) return -1;
        if (most == p_count - 1 && t_.all(p_clique)) return r + p_count;
        const int pivot = static_cast<int>(best & ((Key{1} << kIndexBits) - 1));
        // The branches: P minus the pivot's neighbours.
        Word* pending = level(depth, 2);
        const Word* pivot_row = pivot < np_ ? row(pivot) : kFull ? row(np_ + xs[pivot - np_]) : nullptr;
        for (int w = rank; w < words(); w += kLanes) {
            Word bits = P[w];
            if (pivot_row != nullptr) {
                bits &= ~pivot_row[w];
            } else {
                for (Word b = P[w]; b != 0; b &= b - 1) {
                    const int j = 32 * w + __ffs(b) - 1;
                    if (excluded_adjacent(xs[pivot - np_], j)) bits &= ~(Word{1} << (j & 31));
                }
            }
            pending[w] = bits;
        }
        t_.sync();
        return 0;
    }

    // The child for branch u. Its excluded array is partitioned out of the parent's only
    // when the child has candidates: a leaf needs no X', only whether it is empty (a leaf
    // is about a third of all nodes).
    __device__ void make_child(int depth, int u) {
        const Word* u_row = row(u);
        const Word* P = level(depth, 0);
        const Word* XP = level(depth, 1);
        Word* P2 = level(depth + 1, 0);
        Word* XP2 = level(depth + 1, 1);
        bool candidates = false;
        bool excluded_candidates = false;
        for (int w = static_cast<int>(t_.thread_rank()); w < words(); w += static_cast<int>(G)) {
            P2[w] = P[w] & u_row[w];
            XP2[w] = XP[w] & u_row[w];
            candidates = candidates || P2[w] != 0;
            excluded_candidates = excluded_candidates || XP2[w] != 0;
        }
        int kept = 0;
        if (t_.any(candidates)) {
            kept = partition(t_, excluded(), xlen()[depth], reinterpret_cast<int*>(ws_.scratch()),
                             [&](int e) { return excluded_adjacent(e, u); });
        } else if (!t_.any(excluded_candidates)) {
            const int* xs = excluded();
            // A length that only says whether X' is empty.
            kept = any_of(t_, xlen()[depth], [&](int i) { return excluded_adjacent(xs[i], u); }) ? 1 : 0;
        }
        if (lane0_) xlen()[depth + 1] = kept;
        t_.sync();
    }

    // Hands branch u at depth to an idle worker, if one is queued and the node is worth
    // sharing (other branches pending here, |P| large enough).
    __device__ bool donate(int depth, int r, int u) {
        const Word* P = level(depth, 0);
        const Word* XP = level(depth, 1);
        if (lane0_) level(depth, 2)[u >> 5] &= ~(Word{1} << (u & 31));  // the others pending?
        t_.sync();
        if (!any_bit(t_, level(depth, 2), words()) || count_bits(t_, P, words()) < p_.donate_min_candidates) return false;
        int to = -1;
        if (lane0_) to = p_.worker_list.take();
        to = t_.shfl(to, 0);
        if (to < 0) return false;
        const Workspace dst = workspace_of(p_, to);
        const Word* u_row = row(u);
        const Vertex* pids = ws_.pids();
        for (int i = static_cast<int>(t_.thread_rank()); i <= r; i += static_cast<int>(G)) dst.clique()[i] = i < r ? member(i) : pids[u];
        const auto id = [&](int j) { return pids[j]; };
        const int np = compact(t_, np_, [&](int j) { return has_bit(P, j) && has_bit(u_row, j); }, id, dst.pids());
        int nx = compact(t_, np_, [&](int j) { return has_bit(XP, j) && has_bit(u_row, j); }, id, dst.xids());
        const int* xs = excluded();
        nx += compact(t_, xlen()[depth], [&](int i) { return excluded_adjacent(xs[i], u); },
                      [&](int i) { return excluded_vertex(xs[i]); }, dst.xids() + nx);
        if (lane0_) {
            dst.header()[0] = r + 1;
            dst.header()[1] = np;
            dst.header()[2] = nx;
        }
        t_.sync();
        if (lane0_) {
            __threadfence();
            p_.worker_list.hand_over(to);
            atomicAdd(p_.hand_overs, 1ULL);
        }
        return true;
    }

    // Reports R (its first r members), or R ∪ rest when rest is given (a bitset over the
    // candidates: a P that is a clique itself): `size` members in all.
    __device__ void report(int r, int size, const Word* rest) {
        bool counted = true;
        if (p_.limit != 0) {
            if (lane0_) {
                counted = atomicAdd(p_.reported, 1ULL) < p_.limit;
                if (!counted) atomicExch(p_.stop, 1);
            }
            counted = t_.shfl(counted, 0);
        }
        if (!counted) return;
        if (lane0_) {
            ++count_;
            // A counter in the hot part (a global read-modify-write per clique stalled
            // the warp: 2 %), added to the totals at half its range.
            if (++hist()[size] == kHistFlush) {
                atomicAdd(p_.total_hist + size, static_cast<unsigned long long>(kHistFlush));
                hist()[size] = 0;
            }
        }
        if (p_.layout.out_words > 0) {
            // The clique is gathered in words past the units filled, then placed as units.
            if (p_.ring.words_of(out_used_) + 2 * size + 1 > p_.layout.out_words) {  // the clique and its sort's scratch
                t_.sync();
                p_.ring.flush(t_, ws_.out(), out_used_);
                out_used_ = 0;
            }
            Word* out = ws_.out() + p_.ring.words_of(out_used_);
            for (int i = static_cast<int>(t_.thread_rank()); i < r; i += static_cast<int>(G)) out[1 + i] = member(i);
            if (rest != nullptr) {
                (void)compact(t_, np_, [&](int j) { return has_bit(rest, j); }, [&](int j) { return ws_.pids()[j]; }, out + 1 + r);
            }
            t_.sync();
            if (p_.ring.narrow) {
                place_as_vertex_ids(out + 1, size, reinterpret_cast<unsigned short*>(ws_.out()) + out_used_);
            } else {
                place_as_vertex_ids(out + 1, size, out);
            }
            out_used_ += size + 1;
        }
        t_.sync();
    }

    // The clique's `size` members, in search ids, placed at `to` as [size, ids...], the
    // graph's vertex ids in ascending order, as the host hands them over: each lane ranks
    // its members among all (they are distinct) and places them in the scratch past the
    // clique, from where they move to `to`. `to` starts at or before members - 1 and the
    // scratch lies past its end, so the moves overwrite nothing still to be read.
    template <typename Unit>
    __device__ void place_as_vertex_ids(Word* members, int size, Unit* to) {
        const int lane = static_cast<int>(t_.thread_rank());
        for (int i = lane; i < size; i += static_cast<int>(G)) members[i] = p_.original[members[i]];
        t_.sync();
        for (int i = lane; i < size; i += static_cast<int>(G)) {
            const Word v = members[i];
            int rank = 0;
            for (int j = 0; j < size; ++j) rank += members[j] < v ? 1 : 0;
            members[size + rank] = v;
        }
        t_.sync();
        for (int i = lane; i <= size; i += static_cast<int>(G)) to[i] = static_cast<Unit>(i == 0 ? size : members[size + i - 1]);
    }

    // Whether the search must end (limit reached, or cancelled from the host when
    // check_host is set: a read across the bus, rare on purpose: with thousands of workers
    // reading host memory once per item, those reads took 6 % of blogcatalog's search).
    __device__ bool stopped(bool check_host) {
        int stop = 0;
        if (lane0_) {
            stop = *reinterpret_cast<volatile int*>(p_.stop);
            if (stop == 0 && check_host && *p_.cancel != 0) {
                atomicExch(p_.stop, 1);
                stop = 1;
            }
        }
        return t_.shfl(stop, 0) != 0;
    }

    __device__ void finish() {
        t_.sync();
        if (p_.layout.out_words > 0) p_.ring.flush(t_, ws_.out(), out_used_);
        if (lane0_) atomicAdd(p_.total_count, count_);
        for (int k = static_cast<int>(t_.thread_rank()); k < p_.layout.hist_size(); k += static_cast<int>(G)) {
            if (hist()[k] != 0) atomicAdd(p_.total_hist + k, static_cast<unsigned long long>(hist()[k]));
        }
    }

    const Tile<G>& t_;
    const SearchParams& p_;
    const int id_;
    const Workspace ws_;
    const int words_;  // the layout's width (used when kWords is 0)
    int r0_ = 0;       // |R| of the current subtree (in clique()), branches taken after it
    const bool lane0_;
    Word* const hot_;  // the hot part of the workspace (see WorkerLayout)
    int np_ = 0;                   // candidates of the current subtree (rows 0..np_)
    unsigned long long count_ = 0;  // lane 0
    int out_used_ = 0;
};

// One worker (a tile of G lanes) per work item at a time, taken from the shared counter; idle
// workers take branches from busy ones through the worker list.
template <unsigned G, bool kFull, int kWords>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks) clique_kernel(SearchParams p) {
    extern __shared__ uint4 hot_shared[];
    const Tile<G> tile = cg::tiled_partition<G>(cg::this_thread_block());
    const int id = static_cast<int>(blockIdx.x) * (kBlockThreads / G) + static_cast<int>(tile.meta_group_rank());
    Word* hot = p.hot_in_shared ? reinterpret_cast<Word*>(hot_shared) + tile.meta_group_rank() * p.layout.hot_stride : nullptr;
    Worker<G, kFull, kWords>(tile, p, id, hot).run();
}

}  // namespace spikeminer::graph::detail::gpu
