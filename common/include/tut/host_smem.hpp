/// \file host_smem.hpp
/// \brief A kernel's shared memory laid out on the host, so that the printout and the tests read the
/// kernel's own smem tensors and their byte addresses (host only).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include <cute/tensor.hpp>

namespace tut {

namespace detail {
template <class S, class = void>
struct has_mainloop : std::false_type {};
template <class S>
struct has_mainloop<S, std::void_t<decltype(std::declval<S&>().mainloop)>> : std::true_type {};
}  // namespace detail

/// \brief A kernel's shared memory on the host: one \p Cfg::Smem (the step's SharedStorage, allocated with
/// its alignment, so byte 0 is bank 0 as in the kernel) and the kernel's smem tensors over it, with
/// \p Cfg's smem layouts. Never read: only the addresses count.
///
/// A SharedStorage keeps its k-tiles as members A and B, or, where the epilogue's C tile shares their
/// bytes (a union), as mainloop.A and mainloop.B beside C.
template <class Cfg>
struct HostSmem {
  std::unique_ptr<typename Cfg::Smem> storage = std::make_unique<typename Cfg::Smem>();  ///< aligned new

  /// \brief sA: (BLK_M,BLK_K), or (BLK_M,BLK_K,STAGES) for a ring.
  auto sA() const {
    return cute::make_tensor(cute::make_smem_ptr(tiles().A.begin()), typename Cfg::SmemLayoutA{});
  }
  /// \brief sB: (BLK_N,BLK_K), or (BLK_N,BLK_K,STAGES) for a ring.
  auto sB() const {
    return cute::make_tensor(cute::make_smem_ptr(tiles().B.begin()), typename Cfg::SmemLayoutB{});
  }
  /// \brief sC: (BLK_M,BLK_N), for a SharedStorage with a C tile.
  auto sC() const { return cute::make_tensor(cute::make_smem_ptr(storage->C.begin()), typename Cfg::SmemLayoutC{}); }
  /// \brief Where smem begins: byte addresses are counted from here.
  void const* base() const { return storage.get(); }
  /// \brief Byte offset of \p p from the start of smem.
  std::int64_t offset(void const* p) const {
    return static_cast<char const*>(p) - static_cast<char const*>(base());
  }

 private:
  auto& tiles() const {
    if constexpr (detail::has_mainloop<typename Cfg::Smem>::value)
      return storage->mainloop;
    else
      return *storage;
  }
};

}  // namespace tut
