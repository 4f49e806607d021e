// Step 08's one CUDA translation unit: its kernel, compiled for the configurations it runs and the
// bugs --bug plants. Built for sm_90a only (wgmma exists nowhere else): see the top CMakeLists.txt.
#include <type_traits>

#include "config.hpp"
#include "kernel.cuh"
#include "step08_wgmma.hpp"
#include "tut/launch.cuh"

namespace step08 {

//! [launch]
// One launch of the kernel built from Cfg: tut::launch_cp_async checks the problem, packs the kernel's
// Params and launches it; the lambda names the kernel for them.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  tut::launch_cp_async<Cfg>(args, stream, make_layout_A, make_layout_B, make_layout_C,
                            [](auto const& params) { return &gemm_kernel<BUG, Cfg, std::decay_t<decltype(params)>>; });
}
//! [launch]

template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::no_proxy_fence>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::copies_one_too_far>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::no_epilogue_barrier>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step08
