// The memory budget's arithmetic: what is available, sizes read and written, the peak.
#include "catch.hpp"

#include "spikeminer/core/error.hpp"
#include "spikeminer/core/memory.hpp"

#include <sys/resource.h>

#include <vector>

using namespace spikeminer;

TEST_CASE("sizes are read in bytes or with K, M, G, T, and refused with the option's name", "[core][memory]") {
    CHECK(parse_bytes("1000000", "--memory-budget") == 1'000'000);
    CHECK(parse_bytes("4G", "x") == std::size_t{4} << 30);
    CHECK(parse_bytes("512M", "x") == std::size_t{512} << 20);
    CHECK(parse_bytes("1.5GiB", "x") == std::size_t{3} << 29);
    CHECK(parse_bytes("64kb", "x") == 64 * 1024);
    CHECK(parse_bytes("2t", "x") == std::size_t{2} << 40);
    CHECK(parse_bytes("100B", "x") == 100);
    for (const char* bad : {"", "G", "four", "4X", "-1G", "0", "0.1", "nan", "1e30", "inf"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_bytes(bad, "--memory-budget"), UsageError);
        CHECK_THROWS_WITH(parse_bytes(bad, "--memory-budget"), test::contains("--memory-budget"));
    }
}

TEST_CASE("sizes are written in the largest unit under 1024", "[core][memory]") {
    CHECK(format_bytes(80) == "80 B");
    CHECK(format_bytes(12 * 1024) == "12.0 KiB");
    CHECK(format_bytes(512.0 * 1024 * 1024) == "512 MiB");
    CHECK(format_bytes(3.25 * 1024 * 1024 * 1024) == "3.2 GiB");
}

TEST_CASE("the budget is what is given, or half of what is available, which a limit lowers", "[core][memory]") {
    CHECK(host_memory_budget(12345) == 12345);
    const std::size_t available = available_host_memory();
    CHECK(available > 0);
    const std::size_t budget = host_memory_budget(0);
    CHECK(budget > 0);
    CHECK(budget <= available);
    // Under an address-space limit (ulimit -v) the room left is at most the limit.
    rlimit before{};
    REQUIRE(getrlimit(RLIMIT_AS, &before) == 0);
    if (before.rlim_cur == RLIM_INFINITY) {
        rlimit limited = before;
        limited.rlim_cur = rlim_t{64} << 40;  // far above what the process holds, below infinity
        REQUIRE(setrlimit(RLIMIT_AS, &limited) == 0);
        const std::size_t under_limit = available_host_memory();
        REQUIRE(setrlimit(RLIMIT_AS, &before) == 0);
        CHECK(under_limit <= std::size_t{64} << 40);
    }
}

TEST_CASE("the peak memory of a stage counts what it touched", "[core][memory]") {
    reset_peak_memory();
    const std::size_t before = peak_memory();
    std::vector<char> block(std::size_t{64} << 20, 1);  // 64 MiB, every page touched
    const std::size_t after = peak_memory();
    CHECK(block.back() == 1);
    if (before != 0) CHECK(after >= before + (std::size_t{60} << 20));
}
