// step01_naive: scalar FMA, and one thread's trace through the GEMM.
// Prints what each CTA and thread owns, runs the kernel, and checks it against the CPU.
#include "step01_naive.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step01::step()); }
