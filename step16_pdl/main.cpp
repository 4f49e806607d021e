// The step16_pdl binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step16_pdl.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step16::step()); }
