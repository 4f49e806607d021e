/// \file step07_multistage/what_is_new.hpp
/// \brief Step 07's own printers for section 4 of its printout, what is new: ldmatrix's lane -> row-address
/// map, and the pipeline's first iterations, replayed with the kernel's own PipeState (host only).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/host_smem.hpp"
#include "tut/ldmatrix_rows.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"

namespace step07 {

using tut::plain;
using tut::print_item;
using tut::str;

/// \brief After a blank line, ldmatrix's lane -> row-address map of warp \p warp's first A instruction of
/// stage 0, in \p smem, and what each lane receives.
template <class Cfg>
void print_ldmatrix_map(std::ostream& os, tut::HostSmem<Cfg> const& smem, int warp) {
  os << "\n  ldmatrix.x4 (SM75_U32x4_LDSM_N), warp " << warp
     << ", its first A instruction of stage 0 (tXsA(_,0,0,0)):\n"
     << "  each lane names one 16-byte row of smem, 8 halves along k; lanes 8j..8j+7 are matrix j's rows.\n\n"
     << "    lane  matrix  row of sA      smem byte  bank  |  lane  matrix  row of sA      smem byte  bank\n";
  auto const rows = tut::ldmatrix_rows(typename Cfg::S2RCopyA{}, smem.sA(), smem, warp, 0, 0);
  auto right = [](std::string s, int width) {  // s right-aligned in width columns
    return s.insert(0, std::size_t(std::max(0, width - int(s.size()))), ' ');
  };
  auto cell = [&](tut::LdsmRow const& r) {
    std::string s = "m=" + str(r.mn) + ",k=" + str(r.k) + ".." + str(r.k + kChunk - 1);
    s.resize(15, ' ');
    return right(str(r.lane), 4) + "  " + str(r.matrix) + "       " + s + right(str(r.byte), 9) + "  " +
           right(str(r.byte / 4 % 32), 4);
  };
  for (int l = 0; l < 16; ++l)
    os << "    " << cell(rows[std::size_t(l)]) << "  | " << cell(rows[std::size_t(l + 16)]) << '\n';
  // A phase of 8 lanes moves 128 bytes: conflict-free when its 8 rows cover the 8 16-byte bank groups.
  for (int phase = 0; phase < 4; ++phase) {
    std::set<std::int64_t> groups;
    for (int l = 8 * phase; l < 8 * phase + 8; ++l) groups.insert(rows[std::size_t(l)].byte / 16 % 8);
    os << (phase == 0 ? "\n  " : "  ") << "lanes " << 8 * phase << ".." << 8 * phase + 7 << ": " << groups.size()
       << " of the 8 16-byte bank groups" << (groups.size() == 8 ? ", all 32 banks once: 1 wavefront\n" : "\n");
  }
  os << "  Lane l receives, of matrix j, row l/4 at halves 2(l%4), 2(l%4)+1, in its register j: the\n"
     << "  16x8x16 atom's A fragment, which is why make_tiled_copy_A can retile ldmatrix onto the MMA.\n";
}

/// \brief The pipeline's first iterations for \p k_tiles k-tiles: which stage is filled and which is read, as
/// the kernel's PipeState goes, and which k-tiles each wait ensures have landed; then why one barrier per
/// k-tile is enough.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), groups_in_flight<S>()});
  int const shown = std::min<int>(int(schedule.size()), S - 1 + 6);
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < shown; ++i) {
    tut::PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    bool const waits = !prologue || i == S - 2;  // the prologue waits once, after its last fill
    rows.push_back({prologue ? "prologue" : "k-tile " + str(p.k_tile), prologue ? "-" : "stage " + str(p.read_stage),
                    tut::fill_cell(p.fill_k_tile, p.fill_stage), str(p.committed),
                    waits && p.landed >= 1 ? "k-tiles 0.." + str(std::min(p.landed, k_tiles) - 1) + " landed" : ""});
  }
  tut::print_pipeline_table(os, S, k_tiles,
                            "    iteration    math reads      cp.async fills            groups committed  then wait<" +
                                str(groups_in_flight<S>()) + "> ensures\n",
                            rows, {13, 16, 26, 18}, int(schedule.size()) > shown);
  os << "\n  The math reads k-tile t from stage t % " << S << ". The fill in iteration t goes to the stage k-tile\n"
     << "  t-1 was read from: every warp left it before the barrier at the end of iteration t-1, so one\n"
     << "  __syncthreads per k-tile guards both the read after write and the write after read.\n"
     << "  While the tensor cores work on one stage, up to " << S - 1 << " k-tiles are on their way into the others.\n";
}

}  // namespace step07
