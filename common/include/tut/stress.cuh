/// \file stress.cuh
/// \brief The race amplifier of `--stress`, device code: the steps with TMA stores (12, 13) build their
/// kernel a second way, in which the producer warpgroup's idle warps keep the SM's path to L2 busy. A
/// kernel built without it (Params::kStress false) compiles none of this, so its SASS is the kernel's as
/// written. Verification, the owner test and the watchdog run unchanged on the stressed kernel.
///
/// The race it exposes: an epilogue buffer written again before the TMA store that reads it is done (a
/// tma_store_wait that lets one store too many run on, or none). A TMA store reads its smem buffer as fast
/// as it can hand the bytes on towards L2, and on an idle SM it is done long before the threads come round
/// to that buffer again: the race is there, but the store wins it nearly every time. Here three warps store
/// to a scratch buffer in gmem without pause, so the SM's stores queue behind theirs, each TMA store reads its
/// buffer for longer, and a buffer the threads write too early is still being read. The kernel as written
/// waits for each store to have read its buffer (cp.async.bulk.wait_group.read), so it only runs slower.
///
/// Measured on an H200 (step 13, --bug store_wait_one_short, 10 runs per shape): plain runs failed 0, 10 and
/// 0 times at 4096×2048×1024, 3000×2000×40 and 1024×1024×512, stressed runs 10, 10 and 10
/// (docs/step12_tma_store.md, "Races that hide"). Two levers tried and not kept (5 runs each at 1024×1024×512, 1536×1536×256 and
/// 2048×2048×4096, where plain runs failed 0, 5 and 0 times): keeping the TMA unit busy with L2 prefetches
/// (0, 5, 5), and writing poison into the buffer, sleeping 2 µs, then the values (0, 0, 0: the sleep gives
/// the store the time to finish, which hides the race).
/// Compiled by nvcc only.
#pragma once

#include <cstdint>

#include <cute/config.hpp>

namespace tut::stress {

/// \brief The producer warpgroup's warps that congest (its warps 1..3; warp 0 issues the TMA loads).
inline constexpr int kCongestingWarps = 3;
/// \brief The scratch buffer's float4s per CTA (16 KB).
inline constexpr int kScratchPerCta = 1024;
/// \brief The CTAs the scratch buffer has room for: a persistent grid's (more share it, modulo this).
inline constexpr int kScratchCtas = 132;

namespace {
/// \brief Where the congesting warps store: a few KB per CTA, written over and over (their values are never read).
__device__ float4 g_scratch[kScratchCtas * kScratchPerCta];
}  // namespace

/// \brief A warp of the producer warpgroup other than its first (\p warp 1..3, \p lane 0..31): store to the
/// CTA's scratch buffer until \p consumers consumer warpgroups have counted themselves done in \p done.
CUTE_DEVICE void congest(std::uint32_t const* done, int consumers, int warp, int lane) {
  float4* const scratch = g_scratch + (blockIdx.x % kScratchCtas) * kScratchPerCta;
  int i = (warp - 1) * 32 + lane;
  float4 const v = make_float4(1.f, 2.f, 3.f, 4.f);
  while (*reinterpret_cast<std::uint32_t const volatile*>(done) < std::uint32_t(consumers)) {
    for (int j = 0; j < 64; ++j) {  // 64 stores of 16 bytes between two looks at the counter
      scratch[i % kScratchPerCta] = v;
      i += kCongestingWarps * 32;
    }
  }
}

/// \brief One thread per consumer warpgroup, once its last TMA store has read its buffer: count the
/// warpgroup done in \p done, so that the congesting warps stop.
CUTE_DEVICE void consumer_done(std::uint32_t* done) { atomicAdd(done, 1u); }

}  // namespace tut::stress
