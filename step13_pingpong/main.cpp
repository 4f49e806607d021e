// The step13_pingpong binary: the common harness prints what each CTA and thread owns,
// runs the kernel and checks it against the CPU. The step's title and registration: CMakeLists.txt.
#include "step13_pingpong.hpp"

int main(int argc, char** argv) { return tut::run_step(argc, argv, step13::step()); }
