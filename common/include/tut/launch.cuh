/// \file launch.cuh
/// \brief What the launch of every step from 07 on does on the host, written once: check what cp.async or
/// TMA needs of the problem, make the TMA descriptors from the step's configuration, pack the kernel's
/// one argument (tut/kernel_params.hpp), ask for the dynamic shared memory, and start the grid the
/// configuration's schedule gives. A step's launch.cu names its kernel (from step 07 on the build
/// writes it, from cmake/step_launch.cu.in). Steps 01 and 02, whose kernels take everything as
/// arguments, launch through launch_tiles (their launch.cu from cmake/step_launch_tiles.cu.in).
///
/// CUTLASS splits the same work between `GemmUniversal::to_underlying_arguments()` (the Params, the TMA
/// descriptors among them) and `GemmUniversalAdapter::run()` (the smem attribute, the grid, the launch).
/// Compiled by nvcc only (the launch is a <<<...>>>).
#pragma once

#include <type_traits>
#include <utility>

#include <cute/tensor.hpp>

#include "tut/harness.hpp"
#include "tut/kernel_params.hpp"

namespace tut {

/// \brief Throw UsageError unless K is a multiple of \p chunk halves (16 bytes) and A and B start 16-byte
/// aligned, as \p unit ("cp.async", "TMA") needs: cp.async copies 16 bytes of a row at a time, and a TMA
/// descriptor's base address and row pitch are multiples of 16 bytes. The harness and the benchmark only
/// pass such problems and cudaMalloc'd pointers; another caller gets this error instead of a fault.
void check_16_byte_rows(GemmArgs const& args, int chunk, char const* unit);

/// \brief True when C's rows all start 16-byte aligned: N a multiple of 4 floats and C aligned. Then the
/// epilogue may store 128 bits at a time, or hand C to the TMA unit.
bool c_rows_aligned(GemmArgs const& args);

/// \brief Lift \p kernel's dynamic shared memory limit to \p bytes (above 48 KB a kernel must ask): once
/// per kernel, on its first launch, not on every launch the benchmark times.
void allow_dynamic_smem(void const* kernel, int bytes);

/// \brief The launch of steps 01 and 02, whose kernels take everything as arguments: one CTA per
/// BLK_M×BLK_N tile of C (the grid rounded up), the TiledMMA's threads in each, no shared memory.
/// \p start(grid, block, args...) starts the step's kernel on the arguments it takes: the tiler, A and
/// its layout (\p make_a(M,K)), B and its layout, C and its layout, the TiledMMA and what to store.
//! [launch_tiles]
template <class T, class CtaTiler, class TiledMma, class MakeA, class MakeB, class MakeC, class Start>
void launch_tiles(GemmArgs const& args, CtaTiler cta_tiler, TiledMma mma,
                  MakeA make_a, MakeB make_b, MakeC make_c, Start start) {
  using cute::ceil_div;
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  dim3 block(cute::size(mma));                              // the TiledMMA's threads
  dim3 grid(ceil_div(M, int(cute::size<0>(cta_tiler))),    // one CTA per BLK_M x BLK_N tile of C
            ceil_div(N, int(cute::size<1>(cta_tiler))));
  start(grid, block,
        cta_tiler,
        static_cast<T const*>(args.A), make_a(M, K),
        static_cast<T const*>(args.B), make_b(N, K),
        args.C, make_c(M, N),
        mma, args.store);
}
//! [launch_tiles]

/// \brief True where Cfg has `static bool dependent_launch(Problem const&)` (step 16's configurations).
template <class Cfg, class = void>
struct HasDependentLaunch : std::false_type {};
template <class Cfg>
struct HasDependentLaunch<Cfg, std::void_t<decltype(Cfg::dependent_launch(std::declval<Problem const&>()))>>
    : std::true_type {};

/// \brief Whether the launch of Cfg's kernel on \p problem lets the next kernel in the stream start early
/// (programmatic dependent launch): what `Cfg::dependent_launch(problem)` says, where Cfg has it (step
/// 16, whose kernel waits for the grid before it with `griddepcontrol.wait`); never elsewhere.
template <class Cfg>
bool dependent_launch(Problem const& problem) {
  if constexpr (HasDependentLaunch<Cfg>::value)
    return Cfg::dependent_launch(problem);
  else
    return false;
}

/// \brief Launch \p kernel on \p p: Cfg's threads and shared memory, and the grid p.schedule gives for
/// the tiles of \p GridTiler (the configuration's CTA tiler).
//! [launch_kernel]
template <class Cfg, class GridTiler = typename Cfg::CtaTiler, class Params>
void launch_kernel(void (*kernel)(Params), Params const& p, Problem const& problem, cudaStream_t stream) {
  allow_dynamic_smem(reinterpret_cast<void const*>(kernel), Cfg::kSmemBytes);
  TileCoord const tiles = tile_counts(problem.m, problem.n, cute::size<0>(GridTiler{}), cute::size<1>(GridTiler{}));
  GridDims const grid = p.schedule.grid(tiles.m, tiles.n);
  constexpr int kCluster = kScheduleOf<Cfg>.cluster_m;
  bool const dependent = dependent_launch<Cfg>(problem);
  if (kCluster == 1 && !dependent) {
    kernel<<<dim3(grid.x, grid.y), Cfg::kThreads, Cfg::kSmemBytes, stream>>>(p);  // dynamic smem: one Cfg::Smem
    return;
  }
  // Launch attributes, so cudaLaunchKernelEx: CTAs in clusters of kCluster along x (step 15); the next
  // kernel in the stream may start before this one ends (step 16).
  cudaLaunchAttribute attributes[2]{};
  unsigned count = 0;
  if (kCluster > 1) {
    attributes[count].id = cudaLaunchAttributeClusterDimension;
    attributes[count++].val.clusterDim = {unsigned(kCluster), 1, 1};
  }
  if (dependent) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count++].val.programmaticStreamSerializationAllowed = 1;
  }
  cudaLaunchConfig_t const config{dim3(grid.x, grid.y), dim3(Cfg::kThreads), std::size_t(Cfg::kSmemBytes), stream,
                                  attributes, count};
  (void)cudaLaunchKernelEx(&config, kernel, p);  // an error is the launch's, which the caller checks, as after <<<>>>
}
//! [launch_kernel]

/// \brief One launch of a kernel whose threads load A and B with cp.async: \p kernel_for(params) names the
/// kernel for the Params type; \p make_a(M,K), \p make_b(N,K), \p make_c(M,N) are the step's layouts.
//! [cp_async_launch]
template <class Cfg, class MakeA, class MakeB, class MakeC, class KernelFor>
void launch_cp_async(GemmArgs const& args, cudaStream_t stream, MakeA make_a, MakeB make_b, MakeC make_c,
                     KernelFor kernel_for) {
  using TA = typename Cfg::TiledMma::ValTypeA;              // the MMA's input and accumulator types
  using TC = typename Cfg::TiledMma::ValTypeC;
  check_16_byte_rows(args, 16 / int(sizeof(TA)), "cp.async");
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto la = make_a(M, K);
  auto lb = make_b(N, K);
  auto lc = make_c(M, N);
  CpAsyncParams<TA, decltype(la), TA, decltype(lb), TC, decltype(lc)> const params{
      static_cast<TA const*>(args.A), la, static_cast<TA const*>(args.B), lb, static_cast<TC*>(args.C), lc,
      c_rows_aligned(args), args.store, kScheduleOf<Cfg>};
  launch_kernel<Cfg>(kernel_for(params), params, args.problem, stream);
}
//! [cp_async_launch]

/// \brief Who stores C in a TMA kernel.
enum class StoreC {
  threads,             ///< the threads, always
  tma_where_aligned,   ///< the TMA unit where C's rows are 16-byte aligned (two kernels), the threads elsewhere
};

/// \brief One launch of a kernel whose A and B arrive by TMA. The descriptors: A's (and B's) address,
/// extents and strides, and the box one copy moves, which is one stage of the smem layout, swizzle
/// included. make_tma_copy reads all of it off the two CuTe layouts (and encodes it with the driver's
/// cuTensorMapEncodeTiled). Where \p STORE says so, and C's rows allow it, C gets a descriptor too, whose
/// box is one epilogue buffer (`Cfg::SmemLayoutC`'s mode 2 counts the buffers), and the kernel built with
/// it runs. \p kernel_for(params) names the kernel for the Params type; \p make_a(M,K), \p make_b(N,K),
/// \p make_c(M,N) are the step's layouts; \p GridTiler counts the tiles of the grid. \p STRESS builds the
/// kernel with the race amplifier (--stress, tut/stress.cuh).
//! [tma_launch]
template <class Cfg, StoreC STORE, bool STRESS = false, class GridTiler = typename Cfg::CtaTiler, class MakeA,
          class MakeB, class MakeC, class KernelFor>
void launch_tma(GemmArgs const& args, cudaStream_t stream, MakeA make_a, MakeB make_b, MakeC make_c,
                KernelFor kernel_for) {
  using namespace cute;
  using TA = typename Cfg::TiledMma::ValTypeA;              // the MMA's input and accumulator types
  using TC = typename Cfg::TiledMma::ValTypeC;
  check_16_byte_rows(args, 16 / int(sizeof(TA)), "TMA");
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto la = make_a(M, K);
  auto lb = make_b(N, K);
  auto lc = make_c(M, N);
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<TA const*>(args.A)), la);  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<TA const*>(args.B)), lb);  // (N,K)
  auto tma_a = make_tma_copy(SM90_TMA_LOAD{}, mA, typename Cfg::SmemLayoutA{}(_,_,0));  // box: (BLK_M,BLK_K)
  // B's box: (BLK_N,BLK_K); in a cluster, each CTA loads its share of the rows for all (multicast).
  auto tma_b = [&] {
    if constexpr (kScheduleOf<Cfg>.cluster_m == 1) return make_tma_copy(SM90_TMA_LOAD{}, mB, typename Cfg::SmemLayoutB{}(_,_,0));
    else return make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, mB, typename Cfg::SmemLayoutB{}(_,_,0), Int<kScheduleOf<Cfg>.cluster_m>{});
  }();
  bool const aligned = c_rows_aligned(args);
  auto run = [&](auto tma_c) {
    TmaParams<decltype(la), decltype(tma_a), decltype(lb), decltype(tma_b), TC, decltype(lc), decltype(tma_c), STRESS>
        const params{la, tma_a, lb, tma_b, static_cast<TC*>(args.C), lc, tma_c, aligned, args.store, kScheduleOf<Cfg>};
    launch_kernel<Cfg, GridTiler>(kernel_for(params), params, args.problem, stream);
  };
  if constexpr (STORE == StoreC::tma_where_aligned) {
    if (aligned) {
      Tensor mC = make_tensor(make_gmem_ptr(static_cast<TC*>(args.C)), lc);  // (M,N)
      return run(make_tma_copy(SM90_TMA_STORE{}, mC, typename Cfg::SmemLayoutC{}(_,_,0)));  // box: one buffer
    }
  }
  run(NoTmaStore{});
}
//! [tma_launch]

}  // namespace tut
