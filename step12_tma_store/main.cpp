// The step12_tma_store binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step12_tma_store.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step12::step()); }
