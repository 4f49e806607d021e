/// \file tut/printout_groups.hpp
/// \brief Sections 2 and 3 of the printout of a kernel whose consumer warpgroups take the CTA's tiles in
/// groups and store C through TMA subtiles (steps 13 and 14): one group of both warpgroups on each tile
/// (cooperative), or two groups of one, each on tiles of its own (ping-pong); and the ping-pong's turns,
/// for section 4 (host only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace tut {

/// \brief The groups the consumer warpgroups of \p Cfg form: 2 (ping-pong, a TiledMMA of one warpgroup)
/// or 1 (cooperative, a TiledMMA of both).
template <class Cfg>
inline constexpr int kGroupsOf = Cfg::kConsumers * 128 / int(cute::size(typename Cfg::TiledMma{}));

/// \brief Sections 2 and 3 for configuration \p Cfg: the tiler and persistent grid, the roles, the TMA
/// loads and stores, the ring and the C buffers, the TMA boxes, one thread's wgmma partition and its
/// subtiles (\p by_subtile, the kernel's view). \p TA, \p TC: the element types; \p SmemAtomAB: the GMMA
/// atom of sA and sB; \p MakeA, \p MakeB, \p MakeC: the step's problem layouts; \p epi_n, \p epi_buffers:
/// a subtile's columns and the buffers per group; \p chunk_c, \p chunk: C's and K's 16-byte multiples.
template <class Cfg, class TA, class TC, class SmemAtomAB, auto MakeA, auto MakeB, auto MakeC, class BySubtile>
auto print_group_sections(std::ostream& os, Options const& o, int epi_n, int epi_buffers, int chunk_c, int chunk,
                          BySubtile by_subtile) {
  using namespace cute;
  constexpr bool pingpong = kGroupsOf<Cfg> == 2;
  constexpr int S = Cfg::kStages;
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler);

  TracedTile const traced = print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  if constexpr (pingpong)
    print_roles<Cfg>(os, "(threads 0..127, 128..255), each on tiles of its own", 1,
                     "one warpgroup's: each consumer runs it on its own tile");
  else
    print_roles<Cfg>(os, "(threads 0..255), both on one tile (cooperative)", 2,
                     "both warpgroups', stacked along M, on one tile");
  print_tma_store_lines<Cfg>(os, epi_n, chunk_c, chunk, pingpong ? ", by its warpgroup" : ", by the consumers");

  auto const t = print_section3_tiles<TA, TC, MakeA, MakeB, MakeC>(os, o, cta_tiler, traced, true);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<TA*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,S)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<TA*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,S)
  int const buffers = int(size<2>(typename Cfg::SmemLayoutC{}));
  print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(S) + " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n", true,
      plain(typename Cfg::SmemLayoutC{}),
      "(BLK_M,EPI_N,BUFFERS) -> smem_idx: GMMA's 64B atom of floats, " + str(epi_buffers) +
          (pingpong ? " buffers per warpgroup" : " buffers"),
      str(S) + " stages x " + str(Cfg::kStageBytes) + " + " + str(buffers) + " C buffers x " + str(Cfg::kSubtileBytes) +
          ", 2 x " + str(S) + " + 2 mbarriers, 1 KB alignment");
  print_tma_boxes<Cfg>(os, t, o, "one thread");

  ThrMMA thr_mma = mma.get_slice(T);
  if (pingpong)
    os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << " of each consumer warpgroup (CTA threads " << T
       << " and " << T + 128 << ", warp " << T / 32 << " of its warpgroup), on the tiles its warpgroup takes\n";
  else
    os << "\n  thr_mma = mma.get_slice(" << T << "): CTA thread " << T << " (warp " << T / 32 % 4 << " of warpgroup "
       << T / 128 << "), on every tile of its CTA\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  print_wgmma_partition(os, mma, T, sA, sB, t,
                        pingpong && bm == 128 ? "rows of both 64-row halves, every k" : "its warpgroup's rows, every k");

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int SUBTILES = Cfg::kSubtiles;
  print_subtile_epilogue<Cfg>(os, mma, T, t, by_subtile,
                              "((PER,MMA_M),SUBTILES) = by_subtile<" + str(SUBTILES) + ">(partition_C(sC_tile))",
                              (pingpong ? "its warpgroup's " : "the consumers' ") + str(epi_buffers));
  int const mma_k = int(size<2>(thr_mma.partition_A(sA)));
  int const mma_m = int(size<1>(thr_mma.partition_A(sA)));
  int const k_tiles = int(size<2>(t.gA));
  os << "\n  gemm() per k-tile: " << mma_k << " x " << mma_m << " wgmma (MMA_K x MMA_M) per warpgroup, each 64x" << bn
     << "x16; loop counts per tile: " << k_tiles << " k-tiles x " << mma_k * mma_m << " = " << k_tiles * mma_k * mma_m
     << " wgmma\n";
  return TracedSections<std::decay_t<decltype(t)>>{t, traced};
}

/// \brief Section 4 of a ping-pong kernel: the traced CTA's tiles, which warpgroup takes each, where its
/// k-tiles lie in the ring (\p Ring, the step's RingState, at each tile's first), and the turn it waits
/// for (\p turn_parity, the step's).
template <class Cfg, class Ring>
void print_turns(std::ostream& os, TracedTile const& traced, int K, std::uint32_t (*turn_parity)(int)) {
  constexpr int S = Cfg::kStages;
  int const bk = cute::size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = (K + bk - 1) / bk;
  TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, cta = traced.visitor.cta;
  int const visits = s.visits(cta, tm, tn);
  os << "  Each consumer warpgroup computes whole tiles of its own: warpgroup 0 the CTA's visits 0, 2, 4, ...,\n"
     << "  warpgroup 1 visits 1, 3, 5, ... The producer fills the ring with the visits' k-tiles in order, so\n"
     << "  visit v's k-tiles are the CTA's k-tiles v*" << k_tiles << " .. v*" << k_tiles << "+" << k_tiles - 1
     << ": k-tile p lands in stage p % " << S << ", on lap p / " << S << ".\n"
     << "  The warpgroups take turns: the one of visit v arrives on turn[(v+1) % 2] once its last k-tile has landed,\n"
     << "  and the one of visit v+1 waits on turn[(v+1) % 2] before its mainloop (turn_parity(v+1)). Then, while\n"
     << "  one multiplies, the other stores its tile; and no warpgroup waits for a k-tile more than a lap ahead.\n\n";
  os << "    visit  tile      warpgroup  k-tiles in the ring   first: stage, lap   before its mainloop\n";
  for (int v = 0; v < visits && v < 6; ++v) {
    TileCoord const t = s.tile(cta, v, tm, tn);
    int const first = v * k_tiles;
    Ring const r = Ring::at(first);
    print_row(os, {str(v), "(" + str(t.m) + "," + str(t.n) + ")", str(v % 2),
                   str(first) + ".." + str(first + k_tiles - 1),
                   str(r.index) + ", " + str(first / S) + " (parity " + str(r.consumer_parity()) + ")",
                   v == 0 ? std::string("-") : "wait turn[" + str(v % 2) + "], parity " + str(turn_parity(v))},
              {7, 10, 11, 22, 20, 0});
  }
  if (visits > 6) os << "    ...\n";
  os << "  (CTA " << cta << ", " << visits << " visit" << (visits == 1 ? "" : "s")
     << (visits == 1 ? ": warpgroup 1 has no tile" : "") << ".)\n\n";
}

/// \brief The end of section 4 in steps 13 to 15: the traced CTA's visits, the turns where \p Cfg is
/// ping-pong (print_turns, with the step's \p Ring and \p turn_parity), and the last k-tile's edge.
template <class Cfg, class Ring>
void print_visits_and_turns(std::ostream& os, TracedTile const& traced, int K, std::uint32_t (*turn_parity)(int)) {
  print_visits(os, traced);
  if constexpr (kGroupsOf<Cfg> == 2) print_turns<Cfg, Ring>(os, traced, K, turn_parity);
  print_k_edge(os, K, cute::size<2>(typename Cfg::CtaTiler{}));
}

}  // namespace tut
