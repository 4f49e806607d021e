// Catch2 v2 (Debian 12: single header) and v3 (split headers, compiled library) behind one include.
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>
#include <catch2/catch_approx.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
