// Step 15's printout: step 14's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), for the
// configuration the launch picks, and what is new: the cluster, its CTAs' tiles and their shares of B;
// then why the launch picks that configuration (and, in ping-pong, the turns).
#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step15_cluster.hpp"
#include "tut/choice.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_groups.hpp"
#include "tut/printout_sm90.hpp"

namespace step15 {

namespace {

using tut::print_item;
using tut::str;

// The cluster of the traced CTA: the pair, their tiles on the first visits, each one's share of B's
// k-tile, and what the two barriers count.
template <class Cfg>
void print_cluster(std::ostream& os, tut::TracedTile const& traced) {
  constexpr int C = Cfg::kClusterM, S = Cfg::kStages;
  typename Cfg::CtaTiler t;
  int const bn = size<1>(t), bk = size<2>(t);
  if constexpr (C == 1) {
    os << "  " << tut::config_name<Cfg>() << " runs without clusters: step 14's kernel, each CTA loads all of its k-tiles.\n\n";
    return;
  }
  tut::TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, cta = traced.visitor.cta, first = cta / C * C;
  print_item(os, "cluster", str(C) + " x 1 x 1 CTAs", "launch attribute cudaLaunchAttributeClusterDimension");
  print_item(os, "pairs", "CTAs " + str(C) + "i.." + str(C) + "i+" + str(C - 1) + ": tiles (m,n)..(m+" + str(C - 1) + ",n)",
             "tile-rows counted up to whole clusters: rows_of(" + str(tm) + ") = " + str(s.rows_of(tm)));
  for (int c = first; c < first + C; ++c) {
    std::string list;
    int const visits = s.visits(c, tm, tn);
    for (int j = 0; j < visits && j < 4; ++j) {
      tut::TileCoord const tile = s.tile(c, j, tm, tn);
      list += (j ? ", " : "") + std::string("(") + str(tile.m) + "," + str(tile.n) + ")" + (tile.m >= tm ? " past C" : "");
    }
    print_item(os, "CTA " + str(c), "rank " + str(c - first) + ", tiles " + list + (visits > 4 ? ", ..." : ""),
               c == first ? "block_rank_in_cluster(); the same n on every visit" : "");
  }
  int const share = bn / C, half_bytes = Cfg::kStageBytesB / C;
  for (int r = 0; r < C; ++r)
    print_item(os, "B rank " + str(r), "rows " + str(r * share) + ".." + str((r + 1) * share - 1) + " of each " + str(bn) +
                   " x " + str(bk) + " k-tile, " + str(half_bytes) + " bytes",
               "tma_b.get_slice(" + str(r) + "); mask 0b" + std::string(std::size_t(C), '1') + ": into every CTA");
  print_item(os, "full[s]", str(Cfg::kStageBytes) + " bytes: A " + str(Cfg::kStageBytesA) + " + B " + str(Cfg::kStageBytesB),
             "of B, " + str(half_bytes * (C - 1)) + " from the other CTA" + (C > 2 ? "s" : ""));
  print_item(os, "empty[s]", str(Cfg::kConsumers / Cfg::kGroups * C) + " arrivals: " + str(Cfg::kConsumers / Cfg::kGroups) +
             " per CTA x " + str(C), "thread c of each reading warpgroup arrives on CTA c's");
  print_item(os, "tail", "the producer waits once more on each of the " + str(S) + " empty[s]",
             "the other CTA's last arrivals, before exit");
  int const alone = C * Cfg::kStageBytes, shared = C * Cfg::kStageBytesA + Cfg::kStageBytesB;
  int const permille = (shared * 2000 / alone + 1) / 2;  // rounded
  print_item(os, "L2 reads", str(shared) + " bytes per k-tile of the cluster, not " + str(alone),
             str(permille / 10) + "." + str(permille % 10) + "%: B once for " + str(C) + " tiles");
  os << '\n';
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  static_assert(tut::kGroupsOf<Cfg> == Cfg::kGroups, "the printout counts the groups the kernel has");
  auto const s = tut::print_group_sections<Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A, make_layout_B, make_layout_C>(
      os, o, kEpiN, kEpiBuffers, kChunkC, kChunk, [](auto&& p) { return by_subtile<Cfg::kSubtiles>(p); });

  // ---- What is new: the cluster; then the choice, and where it picked ping-pong, the turns -----------
  tut::print_section(os, 4, "What is new: clusters of two CTAs, which share each k-tile of B");
  print_cluster<Cfg>(os, s.traced);
  int const row = rate_row(o.problem.k);
  // Where M or N leave a partial tile of some configurations, their k-tiles cost more than the K row says.
  std::array<std::int64_t, kVariants> const factors = k_factors(o.problem);
  bool const ragged = !std::equal(factors.begin(), factors.end(), kKTileFactor[row]);
  tut::print_cost_choice<Variants>(os, o.problem, tut::config_name<Cfg>(), choose(o.problem), kCost, factors.data(),
                                   kPowerFactor, tut::k_tile_cost_note(row, ragged));
  tut::print_visits_and_turns<Cfg, RingState<Cfg::kStages>>(os, s.traced, int(o.problem.k), &turn_parity);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &choice_picture<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::with_choice(tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::empty_count_local), "empty_count_local",
        "each stage's empty barrier counts its own CTA's releases only, as in step 14: a producer then refills the "
        "stage in both CTAs while the other CTA's consumers may still read it, and the other's releases complete "
        "phases early, so the ring's laps slip",
        tut::Check::watchdog, "--m 2048 --n 2048 --k 4096",
        "64 k-tiles per tile on a 4-stage ring: the barriers' phases no longer match the laps, and the kernel "
        "hangs or the GPU stops it with a launch failure; either way the run ends with exit 3",
        launch_of(Bug::empty_count_local)},
       {int(Bug::mask_own_only), "mask_own_only",
        "the multicast mask names the issuing CTA only: each CTA gets its own share of B's k-tile, never the "
        "other's, so no stage's full barrier sees its bytes",
        tut::Check::watchdog, "--m 512 --n 512 --k 128",
        "every full barrier waits for bytes that never come: the kernel hangs, and the watchdog ends the run",
        launch_of(Bug::mask_own_only)},
       {int(Bug::schedule_unpadded), "schedule_unpadded",
        "the kernel's schedule without the cluster (cluster_m 1, step 14's): where a group of tile-rows is odd, the "
        "two CTAs of a cluster take tiles of different columns of C, and each multiplies by half of the other's B",
        tut::Check::verification, "--m 384 --n 512 --k 128",
        "3 tile-rows of 128: CTAs 2 and 3 take tiles (2,0) and (0,1); the sampled entries of both are wrong",
        launch_of(Bug::schedule_unpadded)}},
      {{"HGMMA.64x256x16.F32", "the 128x256 configurations' wgmma, m64n256k16, one per warpgroup and 16 k"},
       {"HGMMA.64x192x16.F32", "the 128x192 configuration's, m64n192k16"},
       {"HGMMA.64x144x16.F32", "the 128x144 configuration's, m64n144k16"},
       {"HGMMA.64x176x16.F32", "the 128x176 ping-pong configuration's, m64n176k16"},
       {"HGMMA.64x128x16.F32", "the 128x128 and 64x128 ping-pong configurations' wgmma, m64n128k16"},
       {"UTMALDG", "the TMA loads, multicast in the clusters"},
       {"UTMASTG", "the TMA stores of C's subtiles, by each group"}},
      &stress_launch), &choose);  // the launch's choice of configuration (config.hpp)
  return s;
}

}  // namespace step15
