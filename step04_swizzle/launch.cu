// Step 04's one CUDA translation unit: instantiate and launch the kernel.
#include <cstdint>
#include <tuple>

#include "config.hpp"
#include "kernel.cuh"
#include "step04_swizzle.hpp"

namespace step04 {

namespace {

// The smem layouts the kernel runs with: the configuration's.
template <class Cfg, Bug BUG>
struct SmemOf : Cfg {};
//~bug{ swizzle_off_by_one: sA and sB swizzled with B = 2 instead of 3 (config.hpp)
template <class Cfg>
struct SmemOf<Cfg, Bug::swizzle_off_by_one> {
  static constexpr int kM = size<0>(typename Cfg::CtaTiler{}), kN = size<1>(typename Cfg::CtaTiler{});
  static constexpr int kK = size<2>(typename Cfg::CtaTiler{});
  using SmemLayoutA = SmemSwizzled<kM, kK, 2>;
  using SmemLayoutB = SmemSwizzled<kN, kK, 2>;
};
//~bug}

//! [launch]
// One launch of the kernel built from Cfg.
template <class Cfg, Bug BUG>
void launch_config(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  typename Cfg::TiledMma mma;

  dim3 block(size(mma));                                    // THR_M x THR_N threads
  dim3 grid(ceil_div(M, size<0>(cta_tiler)),                // one CTA per BLK_M x BLK_N tile of C
            ceil_div(N, size<1>(cta_tiler)));
  using SmemLayoutA = typename SmemOf<Cfg, BUG>::SmemLayoutA;  // sA's layout: the configuration's
  using SmemLayoutB = typename SmemOf<Cfg, BUG>::SmemLayoutB;
  gemm_kernel<BUG><<<grid, block, Cfg::kSmemBytes, stream>>>(  // dynamic smem: one Cfg::Smem
      cta_tiler,
      static_cast<Element const*>(args.A), make_layout_A(M, K), SmemLayoutA{}, typename Cfg::TiledCopyA{},
      static_cast<Element const*>(args.B), make_layout_B(N, K), SmemLayoutB{}, typename Cfg::TiledCopyB{},
      args.C, make_layout_C(M, N),
      mma, args.store);
}

bool aligned(void const* p, int bytes) { return reinterpret_cast<std::uintptr_t>(p) % std::uintptr_t(bytes) == 0; }

}  // namespace

// Cfg's VEC-wide copies where the operands allow them, else the same kernel with scalar copies.
template <class Cfg, Bug BUG>
void launch_vector_or_scalar(tut::GemmArgs const& args, cudaStream_t stream) {
  int const vec_bytes = Cfg::kVec * int(sizeof(Element));
  if (vector_copies_fit(Cfg::kVec, args.problem) && aligned(args.A, vec_bytes) && aligned(args.B, vec_bytes))
    launch_config<Cfg, BUG>(args, stream);
  else
    launch_config<typename Cfg::Scalar, BUG>(args, stream);
}
//! [launch]

// The configurations the benchmark compares (Variants, config.hpp): compiled here, once each.
template void launch_vector_or_scalar<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch_vector_or_scalar<Unswizzled, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch_vector_or_scalar<KMajor, Bug::none>(tut::GemmArgs const&, cudaStream_t);

// The bugs --bug plants (config.hpp), into the default configuration.
template void launch_vector_or_scalar<Default, Bug::no_first_barrier>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch_vector_or_scalar<Default, Bug::swizzle_off_by_one>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step04
