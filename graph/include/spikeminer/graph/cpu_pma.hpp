#pragma once

#include "spikeminer/graph/dynamic_graph.hpp"

#include <optional>
#include <span>
#include <vector>

namespace spikeminer::graph {

/// Density thresholds of a packed memory array's implicit tree (shared with the GPU's
/// GPMA+): level 0 is a leaf segment, `height` the whole array; the upper bound falls and
/// the lower bound rises linearly from leaf to root, so that the root is kept between 30%
/// and 70% full and a leaf between 8% and 92%.
struct PmaDensity {
    static constexpr double kLeafUpper = 0.92;
    static constexpr double kRootUpper = 0.70;
    static constexpr double kLeafLower = 0.08;
    static constexpr double kRootLower = 0.30;
    /// A bulk load fills the array this much, leaving room to grow.
    static constexpr double kBulkFill = 0.60;

    static double upper(int level, int height) {
        return height == 0 ? kRootUpper : kLeafUpper - (kLeafUpper - kRootUpper) * level / height;
    }
    static double lower(int level, int height) {
        return height == 0 ? kRootLower : kLeafLower + (kRootLower - kLeafLower) * level / height;
    }
    /// Slots per leaf segment for a capacity (a power of two): log2(capacity) rounded up
    /// to a power of two, at least 8.
    static std::size_t segment_size(std::size_t capacity);
    /// The smallest capacity, `at_least` doubled as often as needed (a power of two), that
    /// holds `keys` within `fill`.
    static std::size_t capacity_for(std::size_t keys, double fill, std::size_t at_least);
};

/// The sequential packed memory array of Bender et al. as a dynamic directed graph
/// (GPMA's "PMA (CPU)" baseline and the CPU path of the dynamic graph): the edges as
/// sorted keys (src, dst) in an array with gaps, cut into leaf segments that keep their
/// keys packed at the front. An insert goes into its leaf; a leaf that would pass its
/// upper bound is rebalanced with the smallest enclosing window of the implicit tree
/// that stays within its own bound (keys spread evenly over the window's segments), and
/// the array doubles when even the root would not. Deletions remove the key (no lazy
/// marks: readers never have to skip dead keys, and the degrees stay exact); a leaf under
/// its lower bound is rebalanced the same way, and the array halves when the root falls
/// under its own. An insert batch as large as the graph is merged in one pass instead.
/// Per-vertex starts make it readable like a CSR with gaps.
class CpuPma {
public:
    explicit CpuPma(Vertex vertices);

    /// Inserts or overwrites (see BatchResult for the shared semantics). Throws Error for
    /// a vertex id beyond the declared count, before changing anything.
    BatchResult insert_edges(std::span<const EdgeUpdate> batch);
    BatchResult erase_edges(std::span<const EdgeRef> batch);
    BatchResult update_values(std::span<const EdgeUpdate> batch);

    [[nodiscard]] std::optional<float> find(Vertex src, Vertex dst) const;
    [[nodiscard]] std::size_t degree(Vertex v) const;
    template <typename F>
    void for_each_neighbor(Vertex v, F&& f) const {
        for (std::size_t p = row_start_[v]; p < row_start_[v + 1]; ++p) {
            if (keys_[p] != kEmpty) f(key_dst(keys_[p]), values_[p]);
        }
    }
    [[nodiscard]] WeightedCsr to_csr() const { return compact_copy(*this); }

    [[nodiscard]] Vertex num_vertices() const { return vertices_; }
    [[nodiscard]] std::size_t num_edges() const { return edges_; }
    [[nodiscard]] std::size_t capacity() const { return keys_.size(); }
    [[nodiscard]] std::size_t segment_size() const { return segment_; }
    /// Keys in each leaf segment (for invariant checks).
    [[nodiscard]] const std::vector<std::uint32_t>& segment_counts() const { return counts_; }

    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    static constexpr std::size_t kMinCapacity = 64;

private:
    [[nodiscard]] std::size_t segments() const { return counts_.size(); }
    [[nodiscard]] int height() const;
    [[nodiscard]] std::size_t find_segment(std::uint64_t key) const;
    [[nodiscard]] std::optional<std::size_t> position(std::uint64_t key) const;
    bool insert(std::uint64_t key, float value);
    bool erase(std::uint64_t key);
    struct Run {
        std::vector<std::uint64_t> keys;
        std::vector<float> values;
    };
    [[nodiscard]] Run gather(std::size_t first, std::size_t last, const std::optional<std::pair<std::uint64_t, float>>& extra) const;
    void spread(std::size_t first, std::size_t last, const Run& run);
    // Spreads the keys of segments [first, last) and `extra` (when given) evenly over them.
    void redistribute(std::size_t first, std::size_t last, const std::optional<std::pair<std::uint64_t, float>>& extra);
    // Resizes to `capacity` slots and spreads every key (and `extra`) over it.
    void rebuild(std::size_t capacity, const std::optional<std::pair<std::uint64_t, float>>& extra);
    void rebuild(std::size_t capacity, const Run& run);
    // Recomputes the starts of the vertices whose first key may lie in segments [first, last).
    void refresh_starts(std::size_t first, std::size_t last);
    [[nodiscard]] std::size_t window_count(std::size_t first, std::size_t last) const;
    // The smallest window [first, last) above leaf s (level 1 up to the root) that stays
    // within its upper bound with one more key (inserting) or its lower bound (erasing).
    [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>> fitting_window(std::size_t s, bool inserting) const;

    Vertex vertices_;
    std::size_t edges_ = 0;
    std::size_t segment_ = 8;
    std::vector<std::uint64_t> keys_;
    std::vector<float> values_;
    std::vector<std::uint32_t> counts_;
    std::vector<std::size_t> row_start_;  // vertices + 1: the first slot of each vertex's keys
};

}  // namespace spikeminer::graph
