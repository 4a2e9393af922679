#pragma once
// Correction of many p-values for the number of tests: the co-firing edge test's and the
// surrogate tests' shared rule.

#include <cstddef>
#include <span>
#include <vector>

namespace spikeminer::mining {

/// How p-values are corrected for the number of tests.
enum class Correction {
    BenjaminiHochberg,  ///< false discovery rate q (default)
    Bonferroni,         ///< family-wise error rate q
};

struct Corrected {
    std::vector<double> adjusted;  ///< BH q-values, or Bonferroni's min(1, p m)
    std::vector<bool> passed;      ///< the tests kept at level q
};

/// `p` corrected as `tests` tests (at least p.size(): tests not listed, whose p-values
/// were not computed, count towards m). Benjamini-Hochberg keeps the R smallest p-values,
/// R the largest k with p_(k) <= q k / m; Bonferroni keeps p <= q / m.
Corrected correct(std::span<const double> p, Correction correction, double q, std::size_t tests);

}  // namespace spikeminer::mining
