// step06_global_gemm: the whole GEMM on tensor cores, correct at every edge (any M and N, K a multiple
// of 8). Prints what each CTA and thread owns, runs the kernel, and checks it against the CPU.
#include "step06_global_gemm.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step06::step()); }
