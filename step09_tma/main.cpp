// The step09_tma binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step09_tma.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step09::step()); }
