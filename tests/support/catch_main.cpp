// The test executables' main, for Catch2 2.13 and 3.x alike.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

int main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
