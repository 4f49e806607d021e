/// \file owner.hpp
/// \brief Who stores each C entry: the owner epilogue a kernel runs on request (Store::owners), and the
/// host-side partition the printout shows, which the harness checks it against (--owners).
///
/// The GEMM's result does not depend on which thread computes which entry, so verification alone cannot
/// tell whether the kernel partitions C the way the printout says. The owner epilogue can: each thread
/// stores its own id instead of its sums, through the same partition and predicate as the real store.
#pragma once

#include <cstdint>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/problem.hpp"

namespace tut {

/// \brief No thread stores this entry.
constexpr std::uint32_t kNoOwner = 0xFFFFFFFFu;
/// \brief More than one thread stores this entry.
constexpr std::uint32_t kManyOwners = 0xFFFFFFFEu;
/// \brief Owner ids are stored as floats, exact below 2^24: grid size × threads must stay under this.
constexpr std::uint32_t kOwnerIdLimit = 1u << 24;

/// \brief The owner id of thread \p thread of CTA (\p cta_x, \p cta_y), in a grid \p grid_x CTAs long in x
/// with \p threads threads per CTA: (cta_y·grid_x + cta_x)·threads + thread.
CUTE_HOST_DEVICE constexpr std::uint32_t owner_id(std::uint32_t thread, std::uint32_t cta_x, std::uint32_t cta_y,
                                                  std::uint32_t grid_x, std::uint32_t threads) {
  return (cta_y * grid_x + cta_x) * threads + thread;
}

#if defined(__CUDACC__)
/// \brief Device side of Store::owners: every element of \p frg (the accumulators, about to be stored)
/// becomes this thread's owner id, as a float.
template <class Fragment>
CUTE_DEVICE void fill_owner_id(Fragment&& frg) {
  cute::fill(frg, float(owner_id(threadIdx.x, blockIdx.x, blockIdx.y, gridDim.x, blockDim.x)));
}
#endif

/// \brief Host side: for every C(m,n) of \p p (row-major, m·N + n), the owner id that the TiledMMA's
/// partition_C of each CTA's tile gives it (the partition the printout shows and the epilogue stores
/// through), kNoOwner if none, kManyOwners if several. Entries outside the problem are not stored.
template <class CtaTiler, class TiledMma>
std::vector<std::uint32_t> owners_by_partition_C(Problem const& p) {
  using namespace cute;
  CtaTiler cta_tiler;
  TiledMma mma;
  int const M = int(p.m), N = int(p.n);
  int const gx = int(ceil_div(M, int(size<0>(cta_tiler)))), gy = int(ceil_div(N, int(size<1>(cta_tiler))));
  int const threads = int(size(mma));
  std::vector<std::uint32_t> out(std::size_t(M) * std::size_t(N), kNoOwner);
  Tensor mcC = make_identity_tensor(make_shape(M, N));                              // (M,N) -> (m,n)
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx) {
      Tensor cC = local_tile(mcC, cta_tiler, make_coord(bx, by, _), cute::Step<_1, _1, X>{});  // (BLK_M,BLK_N) -> (m,n)
      for (int t = 0; t < threads; ++t) {
        Tensor tCcC = mma.get_slice(t).partition_C(cC);                              // (MMA,MMA_M,MMA_N) -> (m,n)
        std::uint32_t const id = owner_id(t, bx, by, gx, threads);
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
