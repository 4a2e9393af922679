#pragma once
// NumPy's .npy files (format versions 1-3): a short header, a Python dict literal giving
// the element type, the order and the shape, then the raw array. Read here for Kilosort
// and Phy folders, which keep their spikes in them.

#include <cstdint>
#include <string>
#include <vector>

namespace spikeminer::io::detail {

/// A one-column array as 64-bit values: integers (signed or not, 1 to 8 bytes, either
/// byte order) as int64, floats (4 or 8 bytes) as double.
struct NpyColumn {
    bool floating = false;
    std::vector<std::int64_t> integers;  ///< when !floating
    std::vector<double> reals;           ///< when floating
    [[nodiscard]] std::size_t size() const { return floating ? reals.size() : integers.size(); }
};

/// Reads the array at `path`: of shape (N,), (N, 1) or (1, N) in C or Fortran order.
/// Throws Error naming the file for anything else: no .npy magic, a header that is not
/// the dict NumPy writes, another element type (complex, objects, strings, unsigned
/// values past 2^63 - 1), more dimensions or columns, or fewer bytes than the shape
/// claims (checked against the file's size before anything is allocated).
NpyColumn read_npy_column(const std::string& path);

}  // namespace spikeminer::io::detail
