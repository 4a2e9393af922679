// Text from files in error messages: printable ASCII as it is, other bytes escaped, long
// text cut with its length told.
#include "catch.hpp"

#include "spikeminer/core/in_quotes.hpp"

#include <string>

using namespace spikeminer;

TEST_CASE("quoted text keeps printable ASCII, escapes other bytes and cuts long text") {
    CHECK(in_quotes("unit 7") == "'unit 7'");
    CHECK(in_quotes("") == "''");
    CHECK(in_quotes(std::string("a\0b\n\xff", 5)) == "'a\\x00b\\x0a\\xff'");
    const std::string long_token(10'000'000, 'x');
    const std::string message = in_quotes(long_token);
    CHECK(message == "'" + std::string(60, 'x') + "...' (10000000 bytes)");
    CHECK(in_quotes(std::string(60, 'y')) == "'" + std::string(60, 'y') + "'");
}
