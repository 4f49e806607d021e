// Step 07's one CUDA translation unit: its kernel, compiled for the configurations it runs and the
// bugs --bug plants.
#include <type_traits>

#include "config.hpp"
#include "kernel.cuh"
#include "step07_multistage.hpp"
#include "tut/launch.cuh"

namespace step07 {

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
template void launch<Small, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::wait_one_too_few>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::no_epilogue_barrier>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step07
