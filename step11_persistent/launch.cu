// Step 11's one CUDA translation unit: its kernel, compiled for the configurations it runs and the
// bugs --bug plants. Built for sm_90a only (wgmma and setmaxnreg exist nowhere else): see the top
// CMakeLists.txt.
#include <type_traits>

#include "config.hpp"
#include "kernel.cuh"
#include "step11_persistent.hpp"
#include "tut/launch.cuh"

namespace step11 {

//! [launch]
// One launch of the kernel built from Cfg: tut::launch_tma checks the problem, packs the kernel's
// Params (the TMA descriptors among them) and launches it; the lambda names the kernel for them.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  tut::launch_tma<Cfg, tut::StoreC::threads>(
      args, stream, make_layout_A, make_layout_B, make_layout_C,
      [](auto const& params) { return &gemm_kernel<BUG, Cfg, std::decay_t<decltype(params)>>; });
}
//! [launch]

template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::last_stage_kept>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::same_tile_every_visit>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::no_epilogue_wait>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step11
