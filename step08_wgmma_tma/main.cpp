// step08_wgmma_tma: step 07's GEMM the Hopper way: a producer warpgroup loads k-tiles with TMA, consumer
// warpgroups multiply them with wgmma, and mbarriers pass the smem stages between them. Prints what each
// CTA, warpgroup, thread and barrier does, runs the kernel (sm_90 GPUs only), and checks it against the CPU.
#include "step08_wgmma_tma.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step08::step()); }
