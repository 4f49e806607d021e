/// \file mask.hpp
/// \brief Predication at the ragged edge: the mask of a tensor of coordinates (host and device).
#pragma once

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

}  // namespace tut
