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

}  // namespace tut
