/// \file mask.hpp
/// \brief Predication at the ragged edge: the mask of a tensor of coordinates (host and device).
#pragma once

#include <type_traits>
#include <utility>

#include <cute/tensor.hpp>

namespace tut {

//! [mask]
/// \brief The mask of a tensor of coordinates: 1 where the coordinate lies inside \p shape, 0 outside.
/// Given an identity tensor tiled and partitioned like the data, it says which of a thread's elements
/// exist. Lazy: a mask bit is computed (one elem_less) when it is read; the layout is the coordinates'.
template <class CoordTensor, class Bounds>
CUTE_HOST_DEVICE auto make_mask(CoordTensor const& coords, Bounds const& shape) {
  return cute::lazy::transform(coords, [shape](auto const& coord) { return cute::elem_less(coord, shape); });
}
//! [mask]

/// \brief Whether the copy instruction \p CopyOp fills with zeros where its predicate is false: it takes
/// the predicate itself (CuTe's cp.async ..._ZFILL forms: false sets src_size 0, which reads nothing and
/// writes zeros), rather than being skipped by copy_if (which would leave the old bytes in smem). Masked
/// chunks past the ragged edge must be zeros, since they enter the sums.
template <class CopyOp, class = void>
struct zero_fills : std::false_type {};
template <class CopyOp>
struct zero_fills<CopyOp, std::void_t<decltype(CopyOp::copy(
                              std::declval<std::remove_extent_t<typename CopyOp::SRegisters> const&>(),
                              std::declval<std::remove_extent_t<typename CopyOp::DRegisters>&>(), true))>>
    : std::true_type {};
/// \brief zero_fills<CopyOp>::value.
template <class CopyOp>
inline constexpr bool zero_fills_v = zero_fills<CopyOp>::value;

}  // namespace tut
