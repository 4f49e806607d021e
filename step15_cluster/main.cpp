// The step15_cluster binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step15_cluster.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step15::step()); }
