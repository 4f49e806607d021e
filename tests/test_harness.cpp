// Host tests of the harness: size rules, the declared operand convention, variants, device memory, the
// TUT_REQUIRE_GPU switch, and the owner ids.
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "tut/harness.hpp"
#include "tut/owner.hpp"
#include "tut/sass.hpp"
#include "tut/status.hpp"
#include "tut/watchdog.hpp"

namespace {

tut::Step make_step() {
  tut::Step s;
  s.name = "stepXX_test";
  s.in_type = tut::DType::f32;
  s.defaults = {256, 128, 32};
  tut::Variant v;
  v.name = "default";
  v.threads = 256;
  v.tile_m = 128;
  v.tile_n = 64;
  v.tile_k = 8;
  s.variants = {v};
  return s;
}

}  // namespace

TEST_CASE("strides_of follows the declared convention", "[harness]") {
  tut::Problem const p{300, 200, 50};
  auto mn = tut::strides_of({tut::Major::mn, tut::Major::mn, tut::Order::row}, p);
  CHECK(mn == tut::OperandStrides{1, 300, 1, 200, 200, 1});
  auto k = tut::strides_of({tut::Major::k, tut::Major::k, tut::Order::col}, p);
  CHECK(k == tut::OperandStrides{50, 1, 50, 1, 1, 300});
  CHECK_FALSE(mn == k);
  CHECK(tut::major_name(tut::Major::mn, 'M') == "M-major");
  CHECK(tut::major_name(tut::Major::k, 'N') == "K-major");
  CHECK(tut::order_name(tut::Order::row) == "row-major");
}

TEST_CASE("a step's size rule: multiples it needs, and which step runs the rest", "[harness]") {
  tut::Step s = make_step();
  CHECK(tut::unsupported(s, {1, 1, 1}).empty());
  s.multiple_of = {128, 128, 8};
  s.lifted_by = "stepYY_any";
  CHECK(tut::unsupported(s, {256, 128, 32}).empty());
  for (tut::Problem p : {tut::Problem{100, 128, 32}, tut::Problem{256, 129, 32}, tut::Problem{256, 128, 12}}) {
    std::string const why = tut::unsupported(s, p);
    CAPTURE(p.m, p.n, p.k, why);
    CHECK(why.find("multiples of 128") != std::string::npos);
    CHECK(why.find("K a multiple of 8") != std::string::npos);
    CHECK(why.find("stepYY_any handles any size") != std::string::npos);
  }
  s.multiple_of = {1, 1, 8};
  s.lifted_by = "";
  CHECK(tut::unsupported(s, {7, 9, 16}).empty());
  CHECK(tut::unsupported(s, {7, 9, 12}) == "stepXX_test needs K to be a multiple of 8 (got M=7 N=9 K=12)");
}

TEST_CASE("validate: the variant's threads and tiles bound --thread and --tile", "[harness]") {
  tut::Step s = make_step();
  tut::Options o;
  o.problem = {200, 100, 9};
  CHECK_NOTHROW(tut::validate(s, o));
  CHECK(tut::tiles_of(s.variants[0], o.problem) == tut::TileCoord{2, 2});
  o.thread = 256;
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.thread = 255;
  o.tile = {2, 0};
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.tile = {1, 2};
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.tile = {1, 1};
  CHECK_NOTHROW(tut::validate(s, o));
  o.variant = "nope";
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.variant = "default";
  CHECK(&tut::find_variant(s, "") == &s.variants[0]);
  {  // A step that picks its variant by size (Step::choose): --variant still wins; a bad pick is a bug.
    tut::Step c = s;
    c.variants.push_back(c.variants[0]);
    c.variants[1].name = "wide";
    c.choose = [](tut::Problem const& p) { return p.n > 100 ? 1 : 0; };
    tut::Options q = o;
    q.variant = "";
    q.problem = {256, 256, 64};
    CHECK(&tut::variant_for(c, q) == &c.variants[1]);
    q.problem = {256, 64, 64};
    CHECK(&tut::variant_for(c, q) == &c.variants[0]);
    q.variant = "wide";
    CHECK(&tut::variant_for(c, q) == &c.variants[1]);
    q.variant = "";
    q.problem = {256, 256, 64};
    q.bug = "some_bug";  // --bug and --stress run the default, the variant the bugs are compiled into
    CHECK(&tut::variant_for(c, q) == &c.variants[0]);
    q.bug = "";
    q.stress = true;
    CHECK(&tut::variant_for(c, q) == &c.variants[0]);
    q.stress = false;
    c.choose = [](tut::Problem const&) { return 2; };
    CHECK_THROWS_AS(tut::variant_for(c, q), std::logic_error);
    CHECK(&tut::variant_for(s, q) == &s.variants[0]);  // no choose: the default
  }
  // --owners numbers every thread of every tile below 2^24.
  o.owners = true;
  CHECK_NOTHROW(tut::validate(s, o));
  o.problem = {16384, 32768, 1};  // 128 x 512 CTAs x 256 threads = 2^24 ids, 0..2^24-1: fits
  CHECK_NOTHROW(tut::validate(s, o));
  o.problem = {16384, 32768 + 64, 1};  // 128 x 513 CTAs: past 2^24
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  // A 2-D grid has at most 65535 CTAs along y (N): 64 x 65535 tiles is the most.
  o.owners = false;
  o.tile = {0, 0};
  o.problem = {1, 64 * 65535, 1};
  CHECK_NOTHROW(tut::validate(s, o));
  o.problem = {1, 64 * 65536, 1};
  std::string why;
  try {
    tut::validate(s, o);
  } catch (tut::UsageError const& e) {
    why = e.what();
  }
  CHECK(why.find("at most 65535 along y") != std::string::npos);
  s.variants[0].schedule = {tut::Visit::raster_1d, 8};  // a 1-D grid of the same tiles fits
  CHECK_NOTHROW(tut::validate(s, o));
}

TEST_CASE("a problem larger than the GPU's free memory is bad usage", "[harness]") {
  tut::Step s = make_step();
  tut::DeviceInfo dev;
  dev.usable = true;
  dev.name = "test GPU";
  dev.free_bytes = std::size_t(1) << 30;                                                      // 1 GiB free
  CHECK_NOTHROW(tut::check_device_memory(s, {8192, 8192, 4096}, dev));                        // 128+128+256 MiB
  CHECK_THROWS_AS(tut::check_device_memory(s, {16384, 16384, 4096}, dev), tut::UsageError);   // C alone 1 GiB
  s.in_type = tut::DType::f16;                                                                // half the bytes
  CHECK_NOTHROW(tut::check_device_memory(s, {8192, 8192, 8192}, dev));
  CHECK_THROWS_AS(tut::check_device_memory(s, {8192, 8192, 32768}, dev), tut::UsageError);  // A, B 512 MiB each
}

TEST_CASE("TUT_REQUIRE_GPU turns a missing GPU into a failure", "[harness]") {
  unsetenv("TUT_REQUIRE_GPU");
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "0", 1);
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "", 1);
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "1", 1);
  CHECK(tut::require_gpu());
  unsetenv("TUT_REQUIRE_GPU");
}

TEST_CASE("owner ids number every thread of every CTA's every visit once", "[harness]") {
  // A 2-D grid: the CTA x + gx·y, one visit; the ids are dense in (y, x, t) order.
  std::uint32_t const gx = 3, gy = 2, threads = 5;
  std::uint32_t expect = 0;
  for (std::uint32_t y = 0; y < gy; ++y)
    for (std::uint32_t x = 0; x < gx; ++x)
      for (std::uint32_t t = 0; t < threads; ++t) {
        std::uint32_t const id = tut::owner_id(t, x + gx * y, 0, gx * gy, threads);
        REQUIRE(id == expect++);
        tut::Owner const o = tut::owner_of(id, tut::TileSchedule{}, int(gx), int(gy), int(threads));
        REQUIRE(o.valid);
        REQUIRE(o.thread == int(t));
        REQUIRE(o.cta == int(x + gx * y));
        REQUIRE(o.visit == 0);
        REQUIRE(o.tile == tut::TileCoord{int(x), int(y)});
      }
  // A persistent grid of 4 CTAs over 5x3 tiles: CTA c's visit j is raster tile c + 4j, and the id says so.
  tut::TileSchedule const p{tut::Visit::persistent, 2, 4};
  std::set<std::uint32_t> ids;
  for (int cta = 0; cta < 4; ++cta)
    for (int j = 0; j < p.visits(cta, 5, 3); ++j)
      for (std::uint32_t t = 0; t < threads; ++t) {
        std::uint32_t const id = tut::owner_id(t, std::uint32_t(cta), std::uint32_t(j), 4, threads);
        REQUIRE(ids.insert(id).second);
        REQUIRE(id < 15 * threads);  // below tiles x threads, as validate() assumes
        tut::Owner const o = tut::owner_of(id, p, 5, 3, int(threads));
        REQUIRE((o.valid && o.cta == cta && o.visit == j && o.thread == int(t)));
        REQUIRE(o.tile == tut::raster_tile(cta + 4 * j, 5, 3, 2));
      }
  CHECK(ids.size() == 15 * threads);
  CHECK(tut::owner_str(tut::owner_id(2, 1, 2, 4, threads), p, 5, 3, int(threads)) ==
        "CTA 1 thread 2, whose visit 2 is tile (" + std::to_string(tut::raster_tile(9, 5, 3, 2).m) + "," +
            std::to_string(tut::raster_tile(9, 5, 3, 2).n) + ")");
  CHECK(tut::owner_str(tut::owner_id(40, 5, 0, 6, 384), tut::TileSchedule{tut::Visit::raster_1d, 8}, 3, 2, 384) ==
        "CTA 5 thread 40, whose tile is (2,1)");
  CHECK(tut::owner_str(tut::owner_id(4, 5, 0, 6, threads), tut::TileSchedule{}, 3, 2, int(threads)) ==
        "CTA (2,1) thread 4");
  CHECK(tut::owner_str(tut::kNoOwner, p, 5, 3, int(threads)) == "nobody");
  // A value that is no (CTA, visit)'s id, as a kernel's sums may look: not an owner, and no crash. Under 4x3
  // tiles in groups of 2 and 5 CTAs, CTA 2 has 2 visits; an id on its visit 2 would index past the tiles.
  tut::TileSchedule const q{tut::Visit::persistent, 2, 5};
  REQUIRE(q.visits(2, 4, 3) == 2);
  std::uint32_t const stray = tut::owner_id(0, 2, 2, 5, threads);
  CHECK_FALSE(tut::owner_of(stray, q, 4, 3, int(threads)).valid);
  CHECK(tut::owner_str(stray, q, 4, 3, int(threads)) ==
        "the value " + std::to_string(stray) + ", which is no thread's id in this launch");
  CHECK(tut::owner_of(tut::owner_id(0, 2, 1, 5, threads), q, 4, 3, int(threads)).valid);
  CHECK_FALSE(tut::owner_of(tut::owner_id(0, 1, 1, 6, threads), tut::TileSchedule{}, 3, 2, int(threads)).valid);
}

TEST_CASE("a step's multiple_of must keep its registered size rule", "[harness]") {
  CHECK(tut::breaks_size_rule(tut::SizeRule::any, {1, 1, 1}).empty());
  CHECK_FALSE(tut::breaks_size_rule(tut::SizeRule::any, {1, 1, 8}).empty());
  CHECK(tut::breaks_size_rule(tut::SizeRule::any_mn, {1, 1, 8}).empty());
  CHECK_FALSE(tut::breaks_size_rule(tut::SizeRule::any_mn, {1, 1, 1}).empty());
  CHECK_FALSE(tut::breaks_size_rule(tut::SizeRule::any_mn, {128, 128, 8}).empty());
  CHECK(tut::breaks_size_rule(tut::SizeRule::tile_multiples, {128, 128, 8}).empty());
  CHECK_FALSE(tut::breaks_size_rule(tut::SizeRule::tile_multiples, {1, 1, 8}).empty());
}

TEST_CASE("the owner partition names each entry's thread, CTA and visit, under every schedule", "[harness]") {
  // A small scalar-FMA CTA: 4x4 threads over an 8x8 tile, each thread 2x2 entries.
  using CtaTiler = cute::Shape<cute::_8, cute::_8, cute::_4>;
  using TiledMma = decltype(cute::make_tiled_mma(cute::UniversalFMA<float, float, float>{},
                                                 cute::Layout<cute::Shape<cute::_4, cute::_4, cute::_1>>{}));
  int const threads = 16;
  for (tut::TileSchedule const s : {tut::TileSchedule{}, tut::TileSchedule{tut::Visit::raster_1d, 2},
                                    tut::TileSchedule{tut::Visit::persistent, 3, 4},
                                    tut::TileSchedule{tut::Visit::persistent, 1, 100}})
    for (tut::Problem const p : {tut::Problem{1, 1, 4}, tut::Problem{8, 8, 4}, tut::Problem{37, 21, 4},
                                 tut::Problem{64, 9, 4}, tut::Problem{17, 70, 4}}) {
      CAPTURE(int(s.kind), s.group_m, s.ctas, p.m, p.n);
      auto const owners = tut::owners_by_partition_C<CtaTiler, TiledMma>(p, s);
      int const tiles_m = int((p.m + 7) / 8), tiles_n = int((p.n + 7) / 8);
      std::set<std::uint32_t> ids;
      std::size_t wrong = 0;
      for (std::int64_t m = 0; m < p.m; ++m)
        for (std::int64_t n = 0; n < p.n; ++n) {
          std::uint32_t const id = owners[std::size_t(m * p.n + n)];
          if (id == tut::kNoOwner || id == tut::kManyOwners) {
            ++wrong;
            continue;
          }
          ids.insert(id);
          tut::Owner const o = tut::owner_of(id, s, tiles_m, tiles_n, threads);
          tut::TileCoord const tile{int(m / 8), int(n / 8)};
          tut::TileVisitor const v = tut::visitor_of(s, tile, tiles_m, tiles_n);
          // The tile the id names holds (m,n), and the schedule sends that CTA there on that visit.
          if (!o.valid || !(o.tile == tile) || o.cta != v.cta || o.visit != v.visit) ++wrong;
          // The FMA partition: thread (tm,tn) = (t%4, t/4) holds rows tm, tm+4 and cols tn, tn+4 of a tile.
          if (o.thread % 4 != int(m % 8) % 4 || o.thread / 4 != int(n % 8) % 4) ++wrong;
        }
      CHECK(wrong == 0);
      // Every thread of every visited tile stores something when the tiles are whole.
      if (p.m % 8 == 0 && p.n % 8 == 0) CHECK(ids.size() == std::size_t(tiles_m * tiles_n * threads));
    }
}

// ---- The SASS (tut/sass.hpp) ------------------------------------------------------------------------------

namespace {

// What `cuobjdump -sass` prints, trimmed: two kernels, the second with a Bug template argument of 2.
char const* const kSassText = R"SASS(
	code for sm_90a
		Function : _ZN6step0711gemm_kernelILNS_3BugE0EN4cute5tupleIJEEEEvT0_
	.headerflags	@"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
        /*0010*/                   LDSM.16.M88.4 R4, [R2] ;                /* 0x000000000204783b */
        /*0020*/              @!P0 LDS.U.128 R8, [R3+0x10] ;               /* 0x000010000308a984 */
        /*0030*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;         /* 0x00000000000079af */
        /*0040*/                   STL [R1+0x4], R5 ;                      /* 0x0000040501007387 */
		Function : _ZN6step0711gemm_kernelILNS_3BugE2EN4cute5tupleIJEEEEvT0_
        /*0000*/                   LDSM.16.M88.4 R4, [R2] ;                /* 0x000000000204783b */
        /*0010*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;         /* 0x00000000000079af */
)SASS";

}  // namespace

TEST_CASE("parse_sass splits cuobjdump's text into kernels, reads each one's bug, drops the predicates") {
  auto const k = tut::parse_sass(kSassText);
  REQUIRE(k.size() == 2);
  CHECK(k[0].bug == 0);
  CHECK(k[1].bug == 2);
  CHECK(k[0].arch == 90);
  REQUIRE(k[0].instructions.size() == 5);
  CHECK(k[0].instructions[2] == "LDS.U.128 R8, [R3+0x10]");
  CHECK(k[1].instructions.size() == 2);
}

TEST_CASE("parse_sass tells --stress's kernels (Params ending in STRESS = true) from the kernels as written") {
  // Two kernels with Bug 0, their Params' last template argument false (as written) and true (--stress).
  char const* const text = R"SASS(
	code for sm_90a
		Function : _ZN6step1211gemm_kernelILNS_3BugE0ENS_6ConfigEN3tut9TmaParamsIiiNS3_10NoTmaStoreELb0EEEEEvT1_
        /*0000*/                   UTMASTG [UR4], [UR6] ;                  /* 0x0000000604007387 */
		Function : _ZN6step1211gemm_kernelILNS_3BugE0ENS_6ConfigEN3tut9TmaParamsIiiNS3_10NoTmaStoreELb1EEEEEvT1_
        /*0000*/                   UTMASTG [UR4], [UR6] ;                  /* 0x0000000604007387 */
        /*0010*/                   STG.E.128 desc[UR4][R2.64], R4 ;        /* 0x0000000402007986 */
)SASS";
  auto const k = tut::parse_sass(text);
  REQUIRE(k.size() == 2);
  CHECK_FALSE(k[0].stress);
  CHECK(k[1].stress);
  CHECK(k[0].bug == 0);
  CHECK(k[1].bug == 0);
  // The counts are the kernels' as written: the stressed one's UTMASTG is not counted.
  CHECK(tut::sass_count(k, "UTMASTG", 0) == 1);
}

TEST_CASE("sass_matches: the opcode, every modifier of the class, and its operand text") {
  CHECK(tut::sass_matches("LDS.128", "LDS.U.128 R8, [R3+0x10]"));
  CHECK(tut::sass_matches("LDS", "LDS.U.128 R8, [R3]"));
  CHECK_FALSE(tut::sass_matches("LDS", "LDSM.16.M88.4 R4, [R2]"));      // another opcode
  CHECK_FALSE(tut::sass_matches("LDS.64", "LDS.U.128 R8, [R3]"));       // another width
  CHECK(tut::sass_matches("HMMA.16816.F32", "HMMA.16816.F32 R4, R8, R12, R4"));
  CHECK_FALSE(tut::sass_matches("HMMA.16816.F32", "HMMA.1688.F32 R4, R8, R12, R4"));
  CHECK(tut::sass_matches("WARPGROUP.DEPBAR.LE gsb0, 0x1", "WARPGROUP.DEPBAR.LE gsb0, 0x1"));
  CHECK_FALSE(tut::sass_matches("WARPGROUP.DEPBAR.LE gsb0, 0x1", "WARPGROUP.DEPBAR.LE gsb0, 0x0"));
}

TEST_CASE("report_sass passes with every class and no spill, and names what a bug took out") {
  auto const k = tut::parse_sass(kSassText);
  std::vector<tut::SassClass> const classes{{"LDSM", "ldmatrix"}, {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "wait<1>"}};
  std::ostringstream os;
  // Kernel 0 spills (STL): it fails though every class is there.
  auto r = tut::report_sass(os, classes, k, 0, "here", {}, "");
  CHECK_FALSE(r.pass);
  CHECK(r.verdict.find("spills") != std::string::npos);
  // Bug 2 lacks the wait<1>: the report names it.
  r = tut::report_sass(os, classes, k, 2, "here", k, "prev");
  CHECK_FALSE(r.pass);
  CHECK(r.verdict.find("WARPGROUP.DEPBAR.LE gsb0, 0x1") != std::string::npos);
  // Without the spill, kernel 0 passes.
  auto clean = k;
  clean[0].instructions.pop_back();
  CHECK(tut::report_sass(os, classes, clean, 0, "here", {}, "").pass);
  CHECK(tut::sass_count(clean, "LDSM", 0) == 1);
  CHECK(tut::sass_count(clean, "LDSM", 2) == 1);
  // A class the kernels must not hold: kernel 0 holds none of it and passes; bug 2, which has one, fails.
  auto const with_absent = [&](char const* pattern) {
    auto c = classes;
    c.push_back({pattern, "must not be there", true});
    return c;
  };
  clean[1].instructions.push_back("PREEXIT");
  r = tut::report_sass(os, with_absent("PREEXIT"), clean, 0, "here", {}, "");
  CHECK(r.pass);
  CHECK(r.verdict.find("none it must not hold") != std::string::npos);
  r = tut::report_sass(os, with_absent("PREEXIT"), clean, 2, "here", {}, "");
  CHECK_FALSE(r.pass);
  CHECK(r.verdict.find("the bug put PREEXIT into the SASS") != std::string::npos);
  // Kernel 0 holding one fails.
  r = tut::report_sass(os, with_absent("LDS.128"), clean, 0, "here", {}, "");
  CHECK_FALSE(r.pass);
  CHECK(r.verdict.find("LDS.128 in the SASS, which must hold none") != std::string::npos);
}

TEST_CASE("report_sass: a bug planted in one configuration is weighed against that configuration as written") {
  // Two configurations as written (Bug 0): A holds LDSM and the wait<1>, B holds HMMA too. The bug (2) is
  // planted in A only, and takes its wait<1> out: HMMA, which A never held, is not counted against it.
  char const* const text = R"SASS(
	code for sm_90a
		Function : _ZN6step0711gemm_kernelILNS_3BugE0ENS_1AEEEvT0_
        /*0000*/                   LDSM.16.M88.4 R4, [R2] ;                /* 0x000000000204783b */
        /*0010*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;         /* 0x00000000000079af */
		Function : _ZN6step0711gemm_kernelILNS_3BugE0ENS_1BEEEvT0_
        /*0000*/                   LDSM.16.M88.4 R4, [R2] ;                /* 0x000000000204783b */
        /*0010*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;         /* 0x00000000000079af */
        /*0020*/                   HMMA.16816.F32 R4, R8, R12, R4 ;        /* 0x000000000204783b */
		Function : _ZN6step0711gemm_kernelILNS_3BugE2ENS_1AEEEvT0_
        /*0000*/                   LDSM.16.M88.4 R4, [R2] ;                /* 0x000000000204783b */
)SASS";
  auto const k = tut::parse_sass(text);
  REQUIRE(k.size() == 3);
  std::vector<tut::SassClass> const classes{
      {"LDSM", "ldmatrix"}, {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "wait<1>"}, {"HMMA.16816.F32", "mma"}};
  std::ostringstream os;
  CHECK(tut::report_sass(os, classes, k, 0, "here", {}, "").pass);
  auto const r = tut::report_sass(os, classes, k, 2, "here", {}, "");
  CHECK_FALSE(r.pass);
  CHECK(r.verdict == "FAIL: the bug took WARPGROUP.DEPBAR.LE gsb0, 0x1 out of the SASS");
}

// ---- The watchdog and the planted bugs ---------------------------------------------------------------------

TEST_CASE("watchdog_seconds: --timeout wins; else 10x the time at 1 TFLOP/s, plus 5 s") {
  CHECK(tut::watchdog_seconds({8, 8, 8}, 7.5) == 7.5);
  CHECK(tut::watchdog_seconds({1, 1, 1}) == Approx(5.0).epsilon(1e-9));
  // 8192^3: 2*8192^3 = 1.1e12 flops, 1.1 s at 1 TFLOP/s: 16 s.
  CHECK(tut::watchdog_seconds({8192, 8192, 8192}) == Approx(10.0 * 2.0 * 8192.0 * 8192.0 * 8192.0 / 1e12 + 5.0));
}
