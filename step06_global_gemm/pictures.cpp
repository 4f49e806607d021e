// Step 06's own pictures (--svg): the bank maps of the printout's two instructions, and sA coloured by
// bank, before and after the swizzle, from the same model the printout reads.
#include <string>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "smem_accesses.hpp"
#include "step06_global_gemm.hpp"
#include "tut/pictures.hpp"
#include "tut/svg.hpp"

namespace step06 {

template <class Cfg>
void bank_pictures(tut::Options const&, std::string const& dir) {
  using Plain = typename Cfg::template WithSwizzle<false>;
  using Swizzled = typename Cfg::template WithSwizzle<true>;
  tut::svg::write_file(dir + "/banks_store.svg",
                       tut::svg::bank_maps("step06: one warp's cp.async into smem (warp 0, tAsA, instruction 0)",
                                           Model<Plain>::warp_instruction(0, 0, 0),
                                           Model<Swizzled>::warp_instruction(0, 0, 0)));
  tut::svg::write_file(dir + "/banks_load.svg",
                       tut::svg::bank_maps("step06: one warp's 32-bit load (warp 0, tCsA, instruction 0)",
                                           Model<Plain>::warp_instruction(2, 0, 0),
                                           Model<Swizzled>::warp_instruction(2, 0, 0)));
  tut::svg::write_file(
      dir + "/banks_tile.svg",
      tut::svg::bank_tiles("step06: sA before and after the swizzle, each element coloured by its bank",
                           "one k-tile; two halves share a 4-byte bank word; plain: rows of 64 bytes, so rows m and "
                           "m+2 start in the same bank; swizzled: Swizzle<3,3,3> spreads 8 rows over all 32 banks",
                           {tut::bank_panel<typename Plain::SmemLayoutA, ElementAB>("sA, plain", 'm', 'k'),
                            tut::bank_panel<typename Swizzled::SmemLayoutA, ElementAB>("sA, swizzled", 'm', 'k')}));
}

template void bank_pictures<Default>(tut::Options const&, std::string const&);
template void bank_pictures<Unswizzled>(tut::Options const&, std::string const&);

}  // namespace step06
