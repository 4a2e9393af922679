#pragma once

#include "recording.hpp"

#include "spikeminer/core/error.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <string>
#include <vector>

namespace spikeminer::io::detail {

/// Where a column starts in the handed-back file: aligned for any element type, so that
/// the parent can use it where it is mapped.
inline constexpr std::size_t kColumnAlignment = 64;

/// Writes `size` bytes at `offset` of the file `fd`, in slices on several threads for a
/// large array. Throws Error when the file takes less.
void write_at_in_parallel(int fd, const void* data, std::size_t size, std::size_t offset);

/// The child's side of run_isolated: values appended to a file, through a buffer (flush()
/// at the end).
class Writer {
public:
    explicit Writer(int fd) : fd_(fd) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    void bytes(const void* data, std::size_t size) {
        if (size == 0) return;  // an empty vector's data() may be null
        if (used_ + size > buffer_.size()) flush();
        if (size > buffer_.size()) return write_all(static_cast<const char*>(data), size);
        std::memcpy(buffer_.data() + used_, data, size);
        used_ += size;
    }
    template <typename T>
    void value(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    template <typename T>
    void values(const std::vector<T>& v) {
        value(static_cast<std::uint64_t>(v.size()));
        bytes(v.data(), v.size() * sizeof(T));
    }
    void text(const std::string& s) {
        value(static_cast<std::uint64_t>(s.size()));
        bytes(s.data(), s.size());
    }
    void texts(const std::vector<std::string>& v) {
        value(static_cast<std::uint64_t>(v.size()));
        for (const std::string& s : v) text(s);
    }
    /// A large array, as values() but aligned (Reader::column maps it) and written by
    /// several threads.
    template <typename T>
    void column(std::span<const T> v) {
        static_assert(std::is_trivially_copyable_v<T>);
        value(static_cast<std::uint64_t>(v.size()));
        static const char zeros[kColumnAlignment] = {};
        bytes(zeros, (kColumnAlignment - (written_ + used_) % kColumnAlignment) % kColumnAlignment);
        flush();
        write_at_in_parallel(fd_, v.data(), v.size_bytes(), written_);
        written_ += v.size_bytes();
        if (lseek(fd_, static_cast<off_t>(written_), SEEK_SET) < 0) throw Error("cannot hand the recording back from the reading process");
    }
    void flush() {
        write_all(buffer_.data(), used_);
        used_ = 0;
    }
    /// Drops what was written so far (a reader's error replaces its partial result).
    void restart() {
        used_ = 0;
        written_ = 0;
        if (ftruncate(fd_, 0) != 0 || lseek(fd_, 0, SEEK_SET) != 0) throw Error("cannot hand an error back from the reading process");
    }

private:
    static constexpr std::size_t kBuffer = std::size_t{1} << 20;
    void write_all(const char* data, std::size_t size) {
        while (size > 0) {
            const ssize_t done = ::write(fd_, data, size);
            if (done <= 0) throw Error("cannot hand the recording back from the reading process");
            data += done;
            size -= static_cast<std::size_t>(done);
            written_ += static_cast<std::size_t>(done);
        }
    }
    int fd_;
    std::vector<char> buffer_ = std::vector<char>(kBuffer);
    std::size_t used_ = 0;
    std::size_t written_ = 0;  // bytes in the file
};

/// This process's side: the same values read back from the mapped file, every count
/// checked against what is left. `mapping` keeps the file mapped (columns point into it).
class Reader {
public:
    Reader(const char* data, std::size_t size, std::shared_ptr<const void> mapping = {})
        : at_(data), end_(data + size), mapping_(std::move(mapping)) {}
    void bytes(void* to, std::size_t size) {
        if (size == 0) return;
        if (size > static_cast<std::size_t>(end_ - at_)) throw Error("the reading process handed back a short recording");
        std::memcpy(to, at_, size);
        at_ += size;
    }
    template <typename T>
    T value() {
        T v{};
        bytes(&v, sizeof v);
        return v;
    }
    template <typename T>
    std::vector<T> values() {
        std::vector<T> v(count(sizeof(T)));
        bytes(v.data(), v.size() * sizeof(T));
        return v;
    }
    std::string text() {
        std::string s(count(1), '\0');
        bytes(s.data(), s.size());
        return s;
    }
    std::vector<std::string> texts() {
        std::vector<std::string> v(count(sizeof(std::uint64_t)));
        for (std::string& s : v) s = text();
        return v;
    }

    /// A column (Writer::column) where it lies in the mapped file, not copied; mapping()
    /// keeps it there.
    template <typename T>
    std::span<const T> column() {
        const auto n = value<std::uint64_t>();
        const auto misalignment = reinterpret_cast<std::uintptr_t>(at_) % kColumnAlignment;
        const std::size_t pad = misalignment == 0 ? 0 : kColumnAlignment - misalignment;
        if (pad > static_cast<std::size_t>(end_ - at_) || n > static_cast<std::size_t>(end_ - at_ - pad) / sizeof(T)) {
            throw Error("the reading process handed back a short recording");
        }
        at_ += pad;
        const std::span<const T> v(reinterpret_cast<const T*>(at_), n);
        at_ += n * sizeof(T);
        return v;
    }
    [[nodiscard]] const std::shared_ptr<const void>& mapping() const { return mapping_; }

    /// The next count of elements of `element_bytes` each, checked against what is left.
    std::size_t count(std::size_t element_bytes) {
        const auto n = value<std::uint64_t>();
        if (n > static_cast<std::size_t>(end_ - at_) / element_bytes) throw Error("the reading process handed back a short recording");
        return n;
    }

private:
    const char* at_;
    const char* end_;
    std::shared_ptr<const void> mapping_;
};


/// Runs `produce`, which reads the HDF5 file `path` and writes what it found, in a child
/// process, then `consume` on what it wrote, here. The child first walks the file's
/// structure (walk_hdf5_structure), within structure_walk_limit. The HDF5 library (1.10)
/// can crash or loop on a damaged file, in the walk or, reading freed or foreign memory,
/// even after it: here that ends the child only, and this throws Error naming the file.
/// An Error of the reader comes out as it is; Cancel on `progress` stops the child.
/// `produce` must not report progress: the child must not call back into this process's
/// GUI. Where no child can be started (or set_hdf5_reads_isolated(false)), all of it runs
/// here.
void run_isolated(const std::string& path, const std::function<void(Writer&)>& produce,
                  const std::function<void(Reader&)>& consume, const Progress* progress);

/// Runs `read`, a reader of the HDF5 file `path`, in a child process and returns its
/// Recording, handed back through an in-memory file, as run_isolated does.
Recording read_isolated(const std::string& path, const std::function<Recording()>& read, Progress* progress);

}  // namespace spikeminer::io::detail
