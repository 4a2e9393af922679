#pragma once

#include <filesystem>
#include <string>

namespace spikeminer::test {

/// A file shipped in tests/data.
inline std::string data_file(const std::string& name) { return std::string(SPIKEMINER_TEST_DATA_DIR) + "/" + name; }

/// A fresh empty folder for one test's files, removed when the object goes away.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace spikeminer::test
