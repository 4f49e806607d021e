// step05_tensorcore_mma: one tensor-core instruction, every register accounted for (tile multiples).
// Prints what each CTA, warp and thread owns, runs the kernel, and checks it against the CPU.
#include "step05_tensorcore_mma.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step05::step()); }
