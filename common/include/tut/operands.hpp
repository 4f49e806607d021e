/// \file operands.hpp
/// \brief Reading the harness's view of the operands off a step's CuTe layouts.
#pragma once

#include <cute/tensor.hpp>

#include "tut/problem.hpp"

namespace tut {

/// \brief The strides of a step's operand layouts: \p a is (M,K), \p b is (N,K), \p c is (M,N).
/// The harness hands them to the CPU reference, so it reads the operands exactly as the kernel does.
template <class LayoutA, class LayoutB, class LayoutC>
OperandStrides strides_of(LayoutA const& a, LayoutB const& b, LayoutC const& c) {
  using cute::stride;
  return {stride<0>(a), stride<1>(a), stride<0>(b), stride<1>(b), stride<0>(c), stride<1>(c)};
}

/// \brief strides_of() the layouts that \p MakeA(M,K), \p MakeB(N,K) and \p MakeC(M,N) build for \p p: a
/// step passes `&tut::strides_for<make_layout_A, make_layout_B, make_layout_C>` as its Step::strides.
template <auto MakeA, auto MakeB, auto MakeC>
OperandStrides strides_for(Problem const& p) {
  int const M = int(p.m), N = int(p.n), K = int(p.k);
  return strides_of(MakeA(M, K), MakeB(N, K), MakeC(M, N));
}

}  // namespace tut
