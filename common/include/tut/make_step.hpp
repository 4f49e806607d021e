/// \file make_step.hpp
/// \brief Building a tut::Step from a step's registration and config: its variants and what its layouts
/// say (host only). Every step's step.cpp ends with one make_step() call.
#pragma once

#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/harness.hpp"
#include "tut/owner.hpp"
#include "tut/pictures.hpp"
#include "tut/problem.hpp"
#include "tut/registration.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief The position of type \p T in the std::tuple \p Tuple (its first, if it is there twice): the
/// index a step's launch_of() takes for one of its Variants.
template <class T, class Tuple>
inline constexpr std::size_t index_in_v = 0;
template <class T, class First, class... Rest>
inline constexpr std::size_t index_in_v<T, std::tuple<First, Rest...>> =
    std::is_same_v<T, First> ? 0 : 1 + index_in_v<T, std::tuple<Rest...>>;

/// \brief The strides of a step's operand layouts: \p a is (M,K), \p b is (N,K), \p c is (M,N).
template <class LayoutA, class LayoutB, class LayoutC>
OperandStrides strides_of(LayoutA const& a, LayoutB const& b, LayoutC const& c) {
  using cute::stride;
  return {stride<0>(a), stride<1>(a), stride<0>(b), stride<1>(b), stride<0>(c), stride<1>(c)};
}

/// \brief strides_of() the layouts that \p MakeA(M,K), \p MakeB(N,K) and \p MakeC(M,N) build for \p p:
/// make_step() sets it as Step::layout_strides.
template <auto MakeA, auto MakeB, auto MakeC>
OperandStrides strides_for(Problem const& p) {
  int const M = int(p.m), N = int(p.n), K = int(p.k);
  return strides_of(MakeA(M, K), MakeB(N, K), MakeC(M, N));
}

/// \brief A Variant of a kernel configuration whose CTA tiler is \p CtaTiler and whose epilogue stores C
/// through \p TiledMma's partition_C: its thread count, its tile, its owners and its pictures read off
/// those types. \p Smem: the step's SmemSide, for the pictures (void if the step has no smem tiles);
/// \p extra_svg: the step's own pictures; \p schedule: how the kernel's CTAs visit the tiles.
template <class CtaTiler, class TiledMma, class Smem = void>
Variant make_variant(std::string name, LaunchFn launch, TraceFn trace, ExtraSvgFn extra_svg = nullptr,
                     TileSchedule schedule = {}) {
  Variant v;
  v.name = std::move(name);
  v.launch = launch;
  v.trace = trace;
  v.owners = &owners_by_partition_C<CtaTiler, TiledMma>;
  v.pictures = &write_pictures<CtaTiler, TiledMma, Smem>;
  v.extra_svg = extra_svg;
  v.threads = int(cute::size(TiledMma{}));
  v.tile_m = cute::size<0>(CtaTiler{});
  v.tile_n = cute::size<1>(CtaTiler{});
  v.tile_k = cute::size<2>(CtaTiler{});
  if (!schedule.valid())
    throw std::logic_error("variant " + v.name + ": a tile schedule needs group_m >= 1, and ctas >= 1 if persistent");
  v.schedule = schedule;
  return v;
}

/// \brief The DType of element type \p T.
template <class T>
constexpr DType dtype_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, cute::half_t>, "A and B are fp32 or fp16");
  return std::is_same_v<T, float> ? DType::f32 : DType::f16;
}

/// \brief The step as the harness drives it: what its add_tutorial_step() call registers (\p r), A and B
/// of element type \p TA, the default problem, how the operands are laid out (\p convention; the tests
/// check it against the layouts \p MakeA(M,K), \p MakeB(N,K) and \p MakeC(M,N) build), the sizes it runs
/// (\p multiple_of: the numbers behind r's size rule), its variants, the default first, the \p bugs
/// --bug plants, the SASS classes its idea brings (\p sass) and its --stress launches (\p stress: the
/// stress_launch the build writes for a step with TMA stores; nullptr: none). Throws std::logic_error if
/// multiple_of does not keep the registered size rule, or two bugs share a name or an id (or one has id 0,
/// "no bug").
template <class TA, auto MakeA, auto MakeB, auto MakeC>
Step make_step(Registration const& r, Problem defaults, Convention convention, Problem multiple_of,
               std::vector<Variant> variants, std::vector<PlantedBug> bugs = {}, std::vector<SassClass> sass = {},
               LaunchFn (*stress)(int bug) = nullptr) {
  Step s(r);
  s.in_type = dtype_of<TA>();
  s.defaults = defaults;
  s.convention = convention;
  s.layout_strides = &strides_for<MakeA, MakeB, MakeC>;
  s.multiple_of = multiple_of;
  s.variants = std::move(variants);
  s.bugs = std::move(bugs);
  s.sass = std::move(sass);
  s.stress = stress;
  for (std::size_t i = 0; i < s.bugs.size(); ++i) {
    if (s.bugs[i].id == 0 || !s.bugs[i].launch) throw std::logic_error(s.name + ": bug " + s.bugs[i].name + " needs an id above 0 and a launch");
    for (std::size_t j = 0; j < i; ++j)
      if (s.bugs[j].id == s.bugs[i].id || s.bugs[j].name == s.bugs[i].name)
        throw std::logic_error(s.name + ": bugs " + s.bugs[j].name + " and " + s.bugs[i].name + " share a name or an id");
  }
  if (std::string why = breaks_size_rule(r.sizes, multiple_of); !why.empty())
    throw std::logic_error(s.name + "'s add_tutorial_step() and its multiple_of disagree: " + why);
  return s;
}

/// \brief \p s, launching the variant \p choose picks for each problem (Step::choose; steps 14 and 15):
/// the printout, the pictures, the owner test and the benchmark follow it.
inline Step with_choice(Step s, int (*choose)(Problem const&)) {
  s.choose = choose;
  return s;
}

}  // namespace tut
