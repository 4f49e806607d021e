// The step10_warp_specialized binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step10_warp_specialized.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step10::step()); }
