// The step02_local_tile binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step02_local_tile.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step02::step()); }
