// step07_multistage: step 06's GEMM with copy and math overlapped: a cp.async pipeline of smem stages,
// ldmatrix one k-block ahead of the tensor cores, and 128-bit stores of C through smem. Prints what each
// CTA, thread and stage holds, runs the kernel, and checks it against the CPU.
#include "step07_multistage.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step07::step()); }
