// step04_swizzle: shared-memory tiling, a copy partition and a math partition (any M, N, K).
// Prints what each CTA and thread owns, runs the kernel, and checks it against the CPU.
#include "step04_swizzle.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step04::step()); }
