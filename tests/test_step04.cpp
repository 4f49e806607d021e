// Host tests of step 04 (placeholder while the step is built).
#include "catch.hpp"
#include "step04_swizzle.hpp"
TEST_CASE("step04 registers", "[step04]") { CHECK(step04::step().name == "step04_swizzle"); }
