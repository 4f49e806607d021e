// The step05_tensorcore_mma binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step05_tensorcore_mma.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step05::step()); }
