/// \file kernel_params.hpp
/// \brief The one argument of a kernel from step 07 on (host and device): what a launch knows only at run
/// time, packed on the host (tut/launch.cuh makes it). Everything static (the tiler, the TiledMMA, the smem
/// layouts) is the kernel's configuration type instead, its template argument Cfg.
///
/// CUTLASS's kernels take theirs the same way: `GemmUniversal::Params`, built by
/// `to_underlying_arguments()`, passed as one `__grid_constant__` argument.
#pragma once

#include <type_traits>

#include "tut/owner.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief In place of C's TMA descriptor, in a kernel that stores C with its threads.
struct NoTmaStore {};

/// \brief A kernel that loads A and B with cp.async, from their pointers. It takes its Params by value:
/// as a `__grid_constant__`, read where it lies in the parameter space, nvcc recomputed the copies'
/// addresses in step 08's mainloop (176 registers instead of 192) and the kernel ran 12% slower on an
/// H100 (one benchmark run, interleaved with cuBLAS).
template <class TA, class LayoutA, class TB, class LayoutB, class TC, class LayoutC>
struct CpAsyncParams {
  TA const* A;          ///< A's first element
  LayoutA layout_a;     ///< A: (M,K) -> idx
  TB const* B;          ///< B's first element
  LayoutB layout_b;     ///< B: (N,K) -> idx
  TC* C;                ///< C's first element
  LayoutC layout_c;     ///< C: (M,N) -> idx
  bool c_aligned;       ///< C's rows start 16-byte aligned (N a multiple of 4, C aligned): 128-bit stores
  Store store;          ///< the sums, or (the owner test) who stores each entry
  TileSchedule schedule;  ///< which tiles each CTA computes
};

/// \brief A kernel that loads A and B with the TMA unit: their descriptors hold the addresses. It takes
/// its Params as a `__grid_constant__`: the TMA unit reads each descriptor where it lies, in the kernel's
/// parameters. \p TmaC is C's descriptor where the TMA unit stores C, NoTmaStore where the threads do.
/// \p STRESS: the kernel is built with the race amplifier (--stress, tut/stress.cuh).
template <class LayoutA, class TmaA, class LayoutB, class TmaB, class TC, class LayoutC, class TmaC, bool STRESS = false>
struct TmaParams {
  /// \brief The TMA unit stores C: the kernel built with C's descriptor.
  static constexpr bool kTmaStore = !std::is_same_v<TmaC, NoTmaStore>;
  /// \brief The kernel built with the race amplifier (--stress): the stress code compiles in only then.
  static constexpr bool kStress = STRESS;
  LayoutA layout_a;     ///< A: (M,K) -> idx
  TmaA tma_a;           ///< A's TMA descriptor: address, extents, strides, the box (one stage), the swizzle
  LayoutB layout_b;     ///< B: (N,K) -> idx
  TmaB tma_b;           ///< B's
  TC* C;                ///< C's first element
  LayoutC layout_c;     ///< C: (M,N) -> idx
  TmaC tma_c;           ///< C's TMA descriptor (the box: one epilogue buffer), or NoTmaStore
  bool c_aligned;       ///< C's rows start 16-byte aligned (N a multiple of 4, C aligned): 128-bit or TMA stores
  Store store;          ///< the sums, or (the owner test) who stores each entry
  TileSchedule schedule;  ///< which tiles each CTA computes
};

}  // namespace tut
