/// \file step.hpp
/// \brief Building a tut::Step from a step's config: its variants and what its layouts say (host only).
#pragma once

#include <string>

#include <cute/tensor.hpp>

#include "tut/harness.hpp"
#include "tut/owner.hpp"
#include "tut/pictures.hpp"
#include "tut/problem.hpp"

namespace tut {

/// \brief The strides of a step's operand layouts: \p a is (M,K), \p b is (N,K), \p c is (M,N).
template <class LayoutA, class LayoutB, class LayoutC>
OperandStrides strides_of(LayoutA const& a, LayoutB const& b, LayoutC const& c) {
  using cute::stride;
  return {stride<0>(a), stride<1>(a), stride<0>(b), stride<1>(b), stride<0>(c), stride<1>(c)};
}

/// \brief strides_of() the layouts that \p MakeA(M,K), \p MakeB(N,K) and \p MakeC(M,N) build for \p p: a
/// step passes `&tut::strides_for<make_layout_A, make_layout_B, make_layout_C>` as Step::layout_strides.
template <auto MakeA, auto MakeB, auto MakeC>
OperandStrides strides_for(Problem const& p) {
  int const M = int(p.m), N = int(p.n), K = int(p.k);
  return strides_of(MakeA(M, K), MakeB(N, K), MakeC(M, N));
}

/// \brief A Variant of a kernel configuration whose CTA tiler is \p CtaTiler and whose epilogue stores C
/// through \p TiledMma's partition_C: its thread count, its tile, its owners and its pictures read off
/// those types. \p TiledCopyA: the copy partition of A, for the pictures (void if the step has none);
/// \p extra_svg: the step's own pictures.
template <class CtaTiler, class TiledMma, class TiledCopyA = void>
Variant make_variant(std::string name, LaunchFn launch, TraceFn trace, ExtraSvgFn extra_svg = nullptr) {
  Variant v;
  v.name = std::move(name);
  v.launch = launch;
  v.trace = trace;
  v.owners = &owners_by_partition_C<CtaTiler, TiledMma>;
  v.pictures = &write_pictures<CtaTiler, TiledMma, TiledCopyA>;
  v.extra_svg = extra_svg;
  v.threads = int(cute::size(TiledMma{}));
  v.tile_m = cute::size<0>(CtaTiler{});
  v.tile_n = cute::size<1>(CtaTiler{});
  v.tile_k = cute::size<2>(CtaTiler{});
  return v;
}

}  // namespace tut
