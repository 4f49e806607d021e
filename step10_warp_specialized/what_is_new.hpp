/// \file step10_warp_specialized/what_is_new.hpp
/// \brief Section 4 of step 10's printout, what only this step prints (step.cpp calls it after the
/// sections every Hopper step shares): the warp roles, setmaxnreg, the pipeline's barrier phases for
/// the first k-tiles, and the epilogue's stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step10 {

/// \brief The barrier phases of the first k-tiles, as the kernel's RingState counters go.
template <class Cfg>
void print_barriers(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = tut::ring_schedule<RingState, S>(k_tiles);
  int const shown = std::min<int>(k_tiles, 2 * S + 1);
  os << "  The pipeline: " << S << " stages, two mbarriers each. full[s] completes a phase when the producer has\n"
     << "  arrived (arrive.expect_tx, " << Cfg::kStageBytes << " bytes) and the TMA unit has delivered those bytes;"
     << " empty[s]\n  when each of the " << Cfg::kConsumers << " consumer warpgroups has arrived."
     << " wait(bar, p) returns once the phase of parity p\n  has completed; a fresh barrier counts its phase \"-1\""
     << " (parity 1) as complete. " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s") << " for this CTA:\n\n"
     << "    k-tile  stage  producer: wait empty[s] for    then     consumers: wait full[s] for  then release\n";
  for (int i = 0; i < shown; ++i) {
    tut::RingStep const& b = schedule[std::size_t(i)];
    std::string const wait_empty =
        "parity " + tut::str(b.empty_parity) +
        (b.lap == 0 ? " (passes: fresh)" : " (k-tile " + tut::str(b.k_tile - S) + " read)");
    std::string const released =
        b.released_stage < 0 ? "-"
                             : "empty[" + tut::str(b.released_stage) + "] (k-tile " + tut::str(b.released_k_tile) + ")";
    tut::print_row(os,
                   {tut::str(b.k_tile), tut::str(b.stage), wait_empty, "TMA A,B", "parity " + tut::str(b.full_parity),
                    released},
                   {8, 7, 30, 9, 29});
  }
  if (k_tiles > shown) os << "    ... (the same, round the ring; the parities flip every lap)\n";
  os << "\n  The consumers release k-tile t-1's stage after issuing k-tile t's wgmmas and waiting for all but\n"
     << "  that batch (warpgroup_wait<1>): the tensor cores always have one batch queued. The last stage is\n"
     << "  never released: nothing waits for it.\n";
}

/// \brief Section 4 for configuration Cfg, problem \p o, its traced tile \p t (tut::tile_cta).
template <class Cfg, class Tiles>
void print_what_is_new(std::ostream& os, tut::Options const& o, Tiles const& t) {
  int const K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const k_tiles = int(size<2>(t.gA));

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: warp roles, setmaxnreg, and empty barriers with their parity");
  os << "  Warp specialization: the producer warpgroup (threads " << Cfg::kMmaThreads << ".." << Cfg::kThreads - 1
     << ", " << Cfg::kProducerRegs << " registers after setmaxnreg) only\n  waits on empty barriers and issues TMA"
     << " copies, from its first thread. The consumers (threads 0.." << Cfg::kMmaThreads - 1 << ",\n  "
     << Cfg::kConsumerRegs << " registers, " << bm * bn / Cfg::kMmaThreads
     << " of them accumulators) only wait on full barriers, issue wgmma, and store C.\n"
     << "  No __syncthreads follows the setup: step09's one per k-tile is gone, and the epilogue's two meet\n"
     << "  the " << Cfg::kMmaThreads << " consumer threads only, at named barrier 1 (the producer has returned).\n\n";
  tut::print_k_edge(os, K, bk);
  os << "  The TMA unit fills what lies outside A and B with zeros (rows past M or N, k past K), and still\n"
     << "  counts the whole box's bytes on the full barrier.\n\n";
  print_barriers<Cfg>(os, k_tiles);

  tut::print_smem_epilogue_stores(os, copy_c, T, t, bn, kChunkC, "is step09's, by the consumers", "their barrier");
}

}  // namespace step10
