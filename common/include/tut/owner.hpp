/// \file owner.hpp
/// \brief Who stores each C entry: the owner epilogue a kernel runs on request (Store::owners), and the
/// host-side partition the printout shows, which the harness checks it against (--owners).
///
/// The GEMM's result does not depend on which thread computes which entry, so verification alone cannot
/// tell whether the kernel partitions C the way the printout says. The owner epilogue can: each thread
/// stores its own id instead of its sums, through the same partition and predicate as the real store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/problem.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief No thread stores this entry.
constexpr std::uint32_t kNoOwner = 0xFFFFFFFFu;
/// \brief More than one thread stores this entry.
constexpr std::uint32_t kManyOwners = 0xFFFFFFFEu;
/// \brief Owner ids are stored as floats, exact below 2^24: CTAs × visits × threads must stay under this.
constexpr std::uint32_t kOwnerIdLimit = 1u << 24;

/// \brief The owner id of thread \p thread of CTA \p cta, on its visit \p visit (its first tile: 0), in a
/// launch of \p ctas CTAs of \p threads threads: (visit·ctas + cta)·threads + thread. For one tile per
/// CTA of a 2-D grid, cta = x + gridDim.x·y. The id names the CTA, the thread, and, through the step's
/// TileSchedule, the tile it stored.
CUTE_HOST_DEVICE constexpr std::uint32_t owner_id(std::uint32_t thread, std::uint32_t cta, std::uint32_t visit,
                                                  std::uint32_t ctas, std::uint32_t threads) {
  return (visit * ctas + cta) * threads + thread;
}

#if defined(__CUDACC__)
/// \brief Device side of Store::owners: every element of \p frg (the accumulators, about to be stored)
/// becomes this thread's owner id, as a float. \p visit: which of the CTA's tiles this is (0 unless the
/// CTA loops over tiles); \p threads: the threads numbered (those of the TiledMMA); \p thread: this
/// thread's number among them (threadIdx.x, unless several groups of threads each run the TiledMMA).
template <class Fragment>
CUTE_DEVICE void fill_owner_id(Fragment&& frg, int visit = 0, int threads = int(blockDim.x),
                               int thread = int(threadIdx.x)) {
  std::uint32_t const cta = blockIdx.x + gridDim.x * blockIdx.y, ctas = gridDim.x * gridDim.y;
  cute::fill(frg, float(owner_id(std::uint32_t(thread), cta, std::uint32_t(visit), ctas, std::uint32_t(threads))));
}
#endif

/// \brief An owner id taken apart: who stored an entry, and which tile the schedule gives it.
struct Owner {
  bool valid = false;  ///< false: no thread of the launch has this id (a sum, say, or kNoOwner)
  int thread = 0;      ///< among the numbered threads
  int cta = 0;         ///< numbered x + gridDim.x·y
  int visit = 0;       ///< which of the CTA's tiles
  TileCoord tile;      ///< that tile, as the schedule says
};

/// \brief Take \p id apart, for a launch of \p threads threads per CTA over \p tiles_m × \p tiles_n tiles
/// visited as \p s says.
Owner owner_of(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads);

/// \brief Who \p id names, with the tile \p s gives that CTA: "CTA (1,0) thread 17" (a 2-D grid),
/// "CTA 11 thread 40, whose tile is (2,1)", "CTA 3 thread 5, whose visit 2 is tile (4,1)"; or "nobody",
/// "several threads", or that the value is no thread's id.
std::string owner_str(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads);

/// \brief Host side: for every C(m,n) of \p p (row-major, m·N + n), the owner id that the TiledMMA's
/// partition_C of each tile gives it (the partition the printout shows and the epilogue stores through),
/// with the CTA and visit that \p schedule says compute that tile; kNoOwner if none, kManyOwners if
/// several. Entries outside the problem are not stored.
template <class CtaTiler, class TiledMma>
std::vector<std::uint32_t> owners_by_partition_C(Problem const& p, TileSchedule const& schedule) {
  using namespace cute;
  CtaTiler cta_tiler;
  TiledMma mma;
  int const M = int(p.m), N = int(p.n);
  auto const [tiles_m, tiles_n] = tile_counts(M, N, size<0>(cta_tiler), size<1>(cta_tiler));
  int const ctas = schedule.cta_count(tiles_m, tiles_n);
  int const threads = int(size(mma));
  std::vector<std::uint32_t> out(std::size_t(M) * std::size_t(N), kNoOwner);
  Tensor mcC = make_identity_tensor(make_shape(M, N));                              // (M,N) -> (m,n)
  for (int cta = 0; cta < ctas; ++cta)
    for (int j = 0; j < schedule.visits(cta, tiles_m, tiles_n); ++j) {
      TileCoord const tile = schedule.tile(cta, j, tiles_m, tiles_n);
      Tensor cC = local_tile(mcC, cta_tiler, make_coord(tile.m, tile.n, _), cute::Step<_1, _1, X>{});  // (BLK_M,BLK_N) -> (m,n)
      for (int t = 0; t < threads; ++t) {
        Tensor tCcC = mma.get_slice(t).partition_C(cC);                              // (MMA,MMA_M,MMA_N) -> (m,n)
        std::uint32_t const id = owner_id(std::uint32_t(t), std::uint32_t(cta), std::uint32_t(j),
                                          std::uint32_t(ctas), std::uint32_t(threads));
        for (int i = 0; i < int(size(tCcC)); ++i) {
          int const m = get<0>(tCcC(i)), n = get<1>(tCcC(i));
          if (m >= M || n >= N) continue;  // the predicate the kernel stores with
          std::uint32_t& o = out[std::size_t(m) * std::size_t(N) + std::size_t(n)];
          o = o == kNoOwner ? id : kManyOwners;
        }
      }
    }
  return out;
}

}  // namespace tut
