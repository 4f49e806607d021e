// Step 12's one CUDA translation unit: its kernel, compiled for both configurations, the launch of the one
// choose() picks, and the bugs --bug plants into that launch. Built for sm_90a only (wgmma and setmaxnreg
// exist nowhere else): see the top CMakeLists.txt.
#include <type_traits>

#include "config.hpp"
#include "kernel.cuh"
#include "step12_tile_choice.hpp"
#include "tut/launch.cuh"

namespace step12 {

// The configuration whose tiles the launch's grid counts: Cfg.
template <class Cfg, Bug BUG>
struct GridOf : Cfg {};
//~bug{ grid_of_other_tile: the grid is counted in the other configuration's tiles
template <class Cfg>
struct GridOf<Cfg, Bug::grid_of_other_tile> : OtherThan<Cfg> {};
//~bug}

//! [launch]
// One launch of the kernel built from Cfg: tut::launch_tma checks the problem, packs the kernel's
// Params (the TMA descriptors among them) and launches it; the lambda names the kernel for them.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  using GridTiler = typename GridOf<Cfg, BUG>::CtaTiler;   // the configuration whose tiles the grid counts
  tut::launch_tma<Cfg, tut::StoreC::tma_where_aligned, GridTiler>(
      args, stream, make_layout_A, make_layout_B, make_layout_C,
      [](auto const& params) { return &gemm_kernel<Cfg, std::decay_t<decltype(params)>>; });
}
//! [launch]

//! [launch_chosen]
template <Bug BUG>
void launch_chosen(tut::GemmArgs const& args, cudaStream_t stream) {
  bool small = choose(args.problem.m, args.problem.n) == 1;  // the rule (config.hpp)
  if (BUG == Bug::choice_swapped) small = !small;            //~bug choice_swapped: the other one
  if (small)
    launch<Small, BUG>(args, stream);
  else
    launch<Default, BUG>(args, stream);
}
//! [launch_chosen]

// The configurations the benchmark compares (Variants, config.hpp): compiled here, once each.
template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Small, Bug::none>(tut::GemmArgs const&, cudaStream_t);

// The bugs --bug plants (config.hpp), into the launch of the configuration choose() picks. Both change
// only the launch: the kernels they run are the ones above.
template void launch_chosen<Bug::grid_of_other_tile>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch_chosen<Bug::choice_swapped>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step12
