/// \file sass.hpp
/// \brief A step's machine code: the SASS instruction classes its idea brings, counted in its own binary
/// (`cuobjdump -sass`, which needs no GPU), and the spills no step may have.
///
/// A class is an opcode and, optionally, the text its operands must hold: "LDSM" is every ldmatrix,
/// "LDS.128" every LDS whose modifiers include 128 (LDS.128, LDS.U.128), "HMMA.16816" the m16n8k16
/// tensor-core MMA, and "WARPGROUP.DEPBAR.LE gsb0, 0x1" a `warpgroup_wait<1>`.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tut {

/// \brief One class of SASS instructions, as a step declares it: one its kernels must hold, or, \p absent,
/// one they must not (an instruction the step's idea leaves out on purpose).
struct SassClass {
  char const* pattern;  ///< "OPCODE[.MODIFIER...][ operand text]": see sass.hpp
  char const* what;     ///< what it is, in CUDA or CuTe terms: "ldmatrix (copy(SM75_U32x4_LDSM_N))"
  bool absent = false;  ///< the kernels must hold none of it
};

/// \brief The instructions no kernel may hold: local-memory loads and stores, which are register spills
/// (or arrays indexed at run time) in these kernels.
inline constexpr SassClass kSassSpills[] = {{"LDL", "local-memory load (a spill)"},
                                            {"STL", "local-memory store (a spill)"}};

/// \brief One kernel's SASS: its (mangled) name, the planted bug compiled into it, and its instructions.
struct SassKernel {
  std::string name;                       ///< the mangled name of the __global__ function
  int bug = 0;                            ///< the value of its `Bug` template argument (0: none, the real kernel)
  bool stress = false;                    ///< built with the race amplifier (--stress): not counted
  int arch = 0;                           ///< the SASS architecture, major·10 + minor (90 for sm_90 and sm_90a)
  std::vector<std::string> instructions;  ///< "OPCODE.MODS operands", without the guard predicate
};

/// \brief The kernels in the text `cuobjdump -sass` printed.
std::vector<SassKernel> parse_sass(std::string const& cuobjdump_text);

/// \brief Whether \p instruction ("LDS.U.128 R4, [R2]") is of class \p pattern ("LDS.128"): the opcodes
/// match, every modifier of the pattern is one of the instruction's, and the operands hold its operand text.
bool sass_matches(std::string const& pattern, std::string const& instruction);

/// \brief How many instructions of \p kernels whose bug is \p bug are of class \p pattern.
long sass_count(std::vector<SassKernel> const& kernels, std::string const& pattern, int bug = 0);

/// \brief `cuobjdump -sass` of \p file, parsed, for the newest architecture the file holds code for (a binary
/// built for sm_80 and sm_90 holds each kernel twice). Throws std::runtime_error when cuobjdump is missing
/// or fails.
std::vector<SassKernel> read_sass(std::string const& file);

/// \brief The cuobjdump the build found (scripts/setup.sh installs one into .deps), else "cuobjdump".
std::string cuobjdump_command();

/// \brief What --sass prints and decides for one step binary.
struct SassReport {
  bool pass = false;        ///< every class as declared and no spill (bug 0); for a planted bug, the same (it cannot see the bug)
  std::string verdict;      ///< one line: PASS/FAIL and why
};

/// \brief Count \p classes and the spills in \p kernels (bug \p bug; 0 for the real kernels) beside
/// \p previous (the step before's kernels, bug 0; empty when it is not built), print a table to \p os
/// headed by \p here_name and \p previous_name, and decide. For bug 0 the SASS passes when every class
/// occurs, none of the absent ones does, and nothing spills; for a planted bug the report says which class
/// it took away or put in (pass = false).
SassReport report_sass(std::ostream& os, std::vector<SassClass> const& classes, std::vector<SassKernel> const& kernels,
                       int bug, std::string const& here_name, std::vector<SassKernel> const& previous,
                       std::string const& previous_name);

}  // namespace tut
