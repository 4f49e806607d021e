/// \file tests/mbarrier_model.hpp
/// \brief What the host tests of the warp-specialized steps (10-12) model their barrier protocols with:
/// an mbarrier as the PTX ISA states it, and a scheduler that moves the protocol's actors in a random
/// order, to find the interleavings that deadlock or break a rule.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace mbarrier_model {

/// \brief An mbarrier: a phase completes when its pending arrivals and its expected transaction bytes
/// (here: units) reach zero; wait(parity p) returns iff the current phase's parity is not p.
struct Barrier {
  int expected = 0;  ///< arrivals per phase
  int pending = 0;   ///< arrivals still missing in the current phase
  int tx = 0;        ///< transaction units still missing
  int phase = 0;     ///< phases completed
  void init(int arrivals) { expected = pending = arrivals; }
  bool passes(std::uint32_t parity) const { return std::uint32_t(phase % 2) != parity; }
  void complete_if_done() {
    if (pending == 0 && tx == 0) {
      ++phase;
      pending = expected;
    }
  }
  void arrive() {
    --pending;
    complete_if_done();
  }
};

/// \brief Runs \p model to its end under a random scheduler: each move tries the actors 0..actors-1 in
/// an order shuffled from \p seed, and the first that can move (model.step(a) returns true) does. Stops
/// when model.done(), or when \p broken() says a rule was broken; returns false if instead no actor could
/// move before the end (a deadlock).
template <class Model, class Broken>
bool run_random(Model& model, int actors, unsigned seed, Broken broken) {
  std::mt19937 rng(seed);
  std::vector<int> order(static_cast<std::size_t>(actors));
  while (!model.done()) {
    for (int a = 0; a < actors; ++a) order[std::size_t(a)] = a;
    std::shuffle(order.begin(), order.end(), rng);
    bool moved = false;
    for (int a : order)
      if ((moved = model.step(a))) break;
    if (broken()) return true;
    if (!moved) return false;
  }
  return true;
}

}  // namespace mbarrier_model
