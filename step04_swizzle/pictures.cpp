// Step 04's own pictures (--svg): the bank maps of the printout's two instructions, and the smem tiles
// coloured by bank, before and after the swizzle, from the same model the printout reads.
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "smem_accesses.hpp"
#include "step04_swizzle.hpp"
#include "tut/host_smem.hpp"
#include "tut/pictures.hpp"
#include "tut/svg.hpp"

namespace step04 {

template <class Cfg>
void bank_pictures(tut::Options const&, std::string const& dir) {
  using Plain = typename Cfg::template WithSmem<SmemKind::plain>;
  using Swizzled = typename Cfg::template WithSmem<SmemKind::swizzled>;
  // The printout's load: tCsB at k_block 4, after MMA_N/4 128-bit loads per k_block.
  tut::HostSmem<Cfg> smem;
  int const loads_per_k = int(size<1>(typename Cfg::TiledMma{}.get_slice(0).partition_B(smem.sB()))) / 4;
  tut::svg::write_file(dir + "/banks_store.svg",
                       tut::svg::bank_maps("step04: one warp's store into smem (warp 0, tAsA, instruction 0)",
                                           Model<Plain>::warp_instruction(0, 0, 0),
                                           Model<Swizzled>::warp_instruction(0, 0, 0)));
  tut::svg::write_file(dir + "/banks_load.svg",
                       tut::svg::bank_maps("step04: one warp's 128-bit load (warp 0, tCsB, k_block 4)",
                                           Model<Plain>::warp_instruction(3, 0, 4 * loads_per_k),
                                           Model<Swizzled>::warp_instruction(3, 0, 4 * loads_per_k)));
  std::vector<tut::svg::BankPanel> const panels{
      tut::bank_panel<typename Plain::SmemLayoutA, Element>("sA, plain", 'm', 'k'),
      tut::bank_panel<typename Swizzled::SmemLayoutA, Element>("sA, swizzled", 'm', 'k'),
      tut::bank_panel<typename Plain::SmemLayoutB, Element>("sB, plain", 'n', 'k'),
      tut::bank_panel<typename Swizzled::SmemLayoutB, Element>("sB, swizzled", 'n', 'k')};
  tut::svg::write_file(dir + "/banks_tile.svg",
                       tut::svg::bank_tiles("step04: sA and sB before and after the swizzle, each element coloured "
                                            "by its bank",
                                            "one k-tile each; plain: an M-major column of 128 floats is 4 bank rows, "
                                            "so every k starts in bank 0; swizzled: Swizzle<3,2,7> moves the "
                                            "columns apart",
                                            panels));
}

template void bank_pictures<Default>(tut::Options const&, std::string const&);
template void bank_pictures<Unswizzled>(tut::Options const&, std::string const&);
template void bank_pictures<KMajor>(tut::Options const&, std::string const&);

}  // namespace step04
