// step02_local_tile: CTA tiling with local_tile, and predication at the ragged edge (any M, N, K).
// Prints what each CTA and thread owns, runs the kernel, and checks it against the CPU.
#include "step02_local_tile.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step02::step()); }
