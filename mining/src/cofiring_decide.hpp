#pragma once
// The host's half of the edge test: the tables the backends pick candidates with, and the
// decision over a window's candidates (exact p-values, the correction, the thresholds).

#include "cofiring_stats.hpp"
#include "tuning.hpp"

#include <vector>

namespace spikeminer::mining::detail {

using tuning::kTableBaselines;

/// For each test type (synchrony, each interval) and level j, the smallest count whose
/// p-value is within q 2^-j (1 + kMargin) for each baseline count d < table_d: the layout
/// CandidateRule::table reads. Empty when the test is off or chance is independent.
std::vector<std::uint32_t> level_tables(const LagLayout& layout, const EdgeTest& test, std::uint64_t table_d, unsigned threads);

/// A CandidateRule for `test` over `layout` (table and window spikes still to be set).
CandidateRule candidate_rule(const LagLayout& layout, const EdgeTest& test, std::size_t neurons);

/// The edges of a window: of `candidates` (which must hold every test at the deepest
/// needed level or deeper, deepest_needed_level()), those the correction over rule.tests
/// tests accepts, with exact p-values, and that meet the thresholds; sorted by (a, b,
/// interval).
std::vector<CofiringEdge> decide(std::vector<CofiringCandidate> candidates, const EdgeTest& test, const CandidateRule& rule,
                                 unsigned threads);

}  // namespace spikeminer::mining::detail
