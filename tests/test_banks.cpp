// Host tests of the shared-memory bank model (tut/banks.hpp), on cases worked by hand, and of the
// instructions it reads off a CuTe copy.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "tut/banks.hpp"

using namespace cute;
using tut::banks::kIdle;
using tut::banks::WarpAccess;
using tut::banks::wavefronts;

namespace {

// Lane l at byte address first + l * stride, every lane moving `bytes`.
WarpAccess strided(std::int64_t stride, int bytes, std::int64_t first = 0) {
  WarpAccess w;
  w.bytes = bytes;
  for (int l = 0; l < 32; ++l) w.addr[l] = first + l * stride;
  return w;
}

}  // namespace

TEST_CASE("bank model: 32-bit accesses, one phase of 32 lanes", "[banks]") {
  SECTION("consecutive words: 32 banks, one wavefront") {
    auto f = wavefronts(strided(4, 4));
    CHECK(f.needed == 1);
    CHECK(f.ideal == 1);
    CHECK(f.extra() == 0);
  }
  SECTION("a broadcast: every lane reads the same word, one wavefront") {
    auto f = wavefronts(strided(0, 4, 1000));
    CHECK(f.needed == 1);
    CHECK(f.extra() == 0);
  }
  SECTION("stride 2 words: lanes l and l+16 share a bank with different words, 2-way") {
    auto f = wavefronts(strided(8, 4));
    CHECK(f.needed == 2);
    CHECK(f.extra() == 1);
  }
  SECTION("stride 128 bytes: all 32 lanes in bank 0, 32-way") {
    auto f = wavefronts(strided(128, 4));
    CHECK(f.needed == 32);
    CHECK(f.ideal == 1);
    CHECK(f.extra() == 31);
  }
  SECTION("two lanes share a word, a third wants another word of that bank: 2 wavefronts") {
    WarpAccess w;
    w.addr[0] = 0;
    w.addr[1] = 0;
    w.addr[2] = 128;
    CHECK(wavefronts(w).needed == 2);
    CHECK(wavefronts(w).ideal == 1);
  }
  SECTION("idle lanes take no part") {
    WarpAccess w;
    w.addr[5] = 64;
    CHECK(wavefronts(w).needed == 1);
    CHECK(wavefronts(WarpAccess{}).needed == 0);  // no lane at all: nothing to serve
    CHECK(wavefronts(WarpAccess{}).ideal == 0);
  }
}

TEST_CASE("bank model: 128-bit accesses are served per quarter-warp", "[banks]") {
  SECTION("512 contiguous bytes: 4 phases of 128 bytes, no conflict") {
    auto f = wavefronts(strided(16, 16));
    CHECK(f.needed == 4);
    CHECK(f.ideal == 4);
    CHECK(f.extra() == 0);
  }
  SECTION("quarter-warps 128 bytes apart are separate phases: lanes 0 and 8 may share banks") {
    // Lane l reads bytes 16*(l%8) .. of row l/8 (rows 128 bytes apart): each phase covers 32 banks once.
    WarpAccess w;
    w.bytes = 16;
    for (int l = 0; l < 32; ++l) w.addr[l] = 128 * (l / 8) + 16 * (l % 8);
    CHECK(wavefronts(w).extra() == 0);
  }
  SECTION("8 lanes of a phase 128 bytes apart: the same 4 banks, 8-way in every phase") {
    auto f = wavefronts(strided(128, 16));
    CHECK(f.needed == 4 * 8);
    CHECK(f.ideal == 4);
    CHECK(f.extra() == 28);
  }
  SECTION("a broadcast 128-bit load: one wavefront per phase") {
    auto f = wavefronts(strided(0, 16, 256));
    CHECK(f.needed == 4);
    CHECK(f.extra() == 0);
  }
  SECTION("2-way inside a phase: lanes 0..3 and 4..7 of each phase 256 bytes apart") {
    WarpAccess w;
    w.bytes = 16;
    for (int l = 0; l < 32; ++l) w.addr[l] = 16 * (l % 4) + 256 * ((l % 8) / 4) + 1024 * (l / 8);
    CHECK(wavefronts(w).needed == 8);
    CHECK(wavefronts(w).extra() == 4);
  }
}

TEST_CASE("bank model: 64-bit accesses are served per half-warp", "[banks]") {
  CHECK(wavefronts(strided(8, 8)).needed == 2);
  CHECK(wavefronts(strided(8, 8)).extra() == 0);
  CHECK(wavefronts(strided(128, 8)).needed == 2 * 16);  // 16 lanes of a half-warp in banks 0-1
  CHECK(tut::banks::lanes_per_phase(4) == 32);
  CHECK(tut::banks::lanes_per_phase(8) == 16);
  CHECK(tut::banks::lanes_per_phase(16) == 8);
  CHECK_THROWS(tut::banks::lanes_per_phase(2));
}

TEST_CASE("copy_accesses issues what CuTe's copy issues: 128-bit where both sides are contiguous", "[banks]") {
  alignas(128) static float smem[1024];
  SECTION("4 contiguous floats from registers: one 16-byte store") {
    Tensor s = make_tensor(make_smem_ptr(smem + 8), Layout<_4>{});
    Tensor r = make_tensor<float>(Layout<_4>{});
    auto a = tut::banks::copy_accesses(r, s, smem);
    CHECK(a.bytes == 16);
    REQUIRE(a.offsets.size() == 1);
    CHECK(a.offsets[0] == 32);
  }
  SECTION("4 floats 128 apart (a transposing store): four 4-byte stores") {
    Tensor s = make_tensor(make_smem_ptr(smem), Layout<_4, _128>{});
    Tensor r = make_tensor<float>(Layout<_4>{});
    auto a = tut::banks::copy_accesses(r, s, smem);
    CHECK(a.bytes == 4);
    CHECK(a.offsets == std::vector<std::int64_t>{0, 512, 1024, 1536});
  }
  SECTION("a load, smem to registers: 8 floats as two 16-byte loads") {
    Tensor s = make_tensor(make_smem_ptr(smem + 64), Layout<_8>{});
    Tensor r = make_tensor<float>(Layout<_8>{});
    auto a = tut::banks::copy_accesses(s, r, smem);
    CHECK(a.bytes == 16);
    CHECK(a.offsets == std::vector<std::int64_t>{256, 272});
  }
  SECTION("a swizzled layout keeps its 4-float pieces: 16-byte loads at the swizzled addresses") {
    auto sw = composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});  // rows of 32 floats
    Tensor s = make_tensor(make_smem_ptr(smem), sw);
    Tensor r = make_tensor<float>(Layout<_32>{});
    Tensor row1 = s(Int<1>{}, _);  // (32) -> smem, row 1: its 16-byte pieces XORed with 1
    auto a = tut::banks::copy_accesses(row1, r, smem);
    REQUIRE(a.bytes == 16);
    REQUIRE(a.offsets.size() == 8);
    for (int p = 0; p < 8; ++p) CHECK(a.offsets[p] == 128 + 16 * (p ^ 1));
    // Sliced at a run-time row, the swizzle keeps a run-time offset: CuTe cannot prove the alignment,
    // and its copy (so the model) falls back to 32-bit accesses, still at the swizzled addresses.
    int const row = 1;
    auto d = tut::banks::copy_accesses(s(row, _), r, smem);
    REQUIRE(d.bytes == 4);
    REQUIRE(d.offsets.size() == 32);
    for (int k = 0; k < 32; ++k) CHECK(d.offsets[k] == 128 + 4 * (k ^ 4));
  }
}

TEST_CASE("copy_accesses<128> is copy_aligned: the alignment a run-time offset hides, assumed", "[banks]") {
  alignas(128) static half_t smem[2048];
  // Rows of 32 halves, Swizzle<3,3,3>: pairs (k, k+1) stay together, so 32-bit loads are sound.
  auto sw = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  Tensor s = make_tensor(make_smem_ptr(smem), sw);
  int const row = 3;  // a run-time slice, as a thread's partition is
  // What an MMA fragment reads of a row: k = 0,1, 8,9, 16,17, 24,25 (pairs of neighbours, 8 apart).
  Tensor pairs = s(row, _).compose(Layout<Shape<_2, _4>, Stride<_1, _8>>{});  // (2,4) -> smem
  Tensor r = make_tensor<half_t>(Layout<Shape<_2, _4>>{});
  auto plain_copy = tut::banks::copy_accesses(pairs, r, smem);
  CHECK(plain_copy.bytes == 2);  // copy() assumes nothing of a run-time layout: one half at a time
  CHECK(plain_copy.offsets.size() == 8);
  auto aligned = tut::banks::copy_accesses<128>(pairs, r, smem);
  REQUIRE(aligned.bytes == 4);  // copy_aligned: one 32-bit word per pair
  REQUIRE(aligned.offsets.size() == 4);
  for (int q = 0; q < 4; ++q) {
    int const i = 32 * row + 8 * q;  // the plain index of the pair's first half
    CHECK(aligned.offsets[std::size_t(q)] == 2 * (i ^ (((i >> 6) & 7) << 3)));
  }
}

TEST_CASE("atom_accesses: one instruction per atom call, at the address of its first element", "[banks]") {
  alignas(128) static half_t smem[1024];
  // A thread's cp.async partition: (CPY,CPY_M) = (8 halves, 4 rows 32 rows apart) of rows of 32 halves.
  Tensor s = make_tensor(make_smem_ptr(smem + 8), Layout<Shape<_8, _4>, Stride<_1, Int<32 * 32>>>{});
  auto a = tut::banks::atom_accesses(s, smem);
  CHECK(a.bytes == 16);
  CHECK(a.offsets == std::vector<std::int64_t>{16, 16 + 2048, 16 + 4096, 16 + 6144});
  // An atom's elements must be contiguous in smem: a strided one is not an instruction of this model.
  Tensor strided_atom = make_tensor(make_smem_ptr(smem), Layout<Shape<_8, _2>, Stride<_2, _16>>{});
  CHECK_THROWS_AS(tut::banks::atom_accesses(strided_atom, smem), std::invalid_argument);
}

TEST_CASE("warp_instructions lines the lanes up; count_cta sums the warps", "[banks]") {
  std::vector<tut::banks::ThreadAccesses> lanes(32);
  for (int l = 0; l < 32; ++l) lanes[l] = {{4 * l, 128 * l}, 4};  // instruction 0 clean, instruction 1 32-way
  auto w = tut::banks::warp_instructions(lanes);
  REQUIRE(w.size() == 2);
  CHECK(wavefronts(w[0]).extra() == 0);
  CHECK(wavefronts(w[1]).extra() == 31);
  auto total = tut::banks::count_cta(64, [&](int t) { return lanes[t % 32]; });
  CHECK(total.extra() == 2 * 31);
  CHECK(total.ideal == 4);
  lanes[3].bytes = 16;
  CHECK_THROWS(tut::banks::warp_instructions(lanes));
}

TEST_CASE("bank_map draws lanes, banks and the verdict", "[banks]") {
  auto lines = tut::banks::bank_map(strided(128, 4));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("lane  0  1", 0) == 0);
  CHECK(lines[1].rfind("bank  0  0", 0) == 0);
  CHECK(lines[2] == "32 wavefronts, ideal 1: bank 0 gives 32 different words in one phase");
  auto q = tut::banks::bank_map(strided(16, 16));
  CHECK(q[0].find(" |  8") != std::string::npos);  // quarter-warp phases are marked
  CHECK(q[2] == "4 wavefronts, ideal 4: no bank gives two different words in one phase");
}

TEST_CASE("merge_unrolled merges whole 16-byte pieces, all or nothing", "[banks]") {
  tut::banks::ThreadAccesses down_k{{128, 132, 136, 140, 256, 260, 264, 268}, 4};  // two whole pieces
  auto m = tut::banks::merge_unrolled(down_k);
  CHECK(m.bytes == 16);
  CHECK(m.offsets == std::vector<std::int64_t>{128, 256});
  tut::banks::ThreadAccesses column{{0, 512, 1024, 1536}, 4};  // a transposing store: nothing to merge
  CHECK(tut::banks::merge_unrolled(column).bytes == 4);
  CHECK(tut::banks::merge_unrolled(column).offsets == column.offsets);
  tut::banks::ThreadAccesses partial{{0, 4, 8, 12, 16}, 4};  // one word of a second piece
  CHECK(tut::banks::merge_unrolled(partial).bytes == 4);
  tut::banks::ThreadAccesses wide{{0, 16}, 16};  // already 128-bit
  CHECK(tut::banks::merge_unrolled(wide).offsets == wide.offsets);
}
