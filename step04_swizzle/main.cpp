// step04_swizzle: K-major operands, bank conflicts and the swizzle that removes them (any M, N, K).
// Prints what each CTA and thread owns, runs the kernel, and checks it against the CPU.
#include "step04_swizzle.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step04::step()); }
