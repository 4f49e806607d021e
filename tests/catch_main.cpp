// main() for the Catch2 v2 test executables (v3 brings its own, Catch2::Catch2WithMain).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
