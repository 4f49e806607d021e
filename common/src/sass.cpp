// A step's SASS: cuobjdump's text parsed into kernels, instruction classes counted (sass.hpp).
#include "tut/sass.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tut {

namespace {

std::vector<std::string> split(std::string const& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

}  // namespace

std::vector<SassKernel> parse_sass(std::string const& text) {
  static std::regex const function(R"(Function : (\S+))");
  static std::regex const instruction(R"(/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;)");
  static std::regex const predicate(R"(^(\{\s*)?@!?U?P[T0-9]+\s+)");
  static std::regex const bug(R"(3BugE(\d+)E)");  // the Bug template argument, in Itanium mangling
  // --stress's kernels: their Params (tut::TmaParams) end in STRESS = true, the one bool literal in the
  // name, just before the kernel's signature, void(Params).
  static std::regex const stress(R"(Lb1E+vT1_$)");
  static std::regex const code_for(R"(code for sm_(\d+))");
  std::vector<SassKernel> kernels;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  int arch = 0;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, code_for)) {
      arch = std::stoi(m[1]);
    } else if (std::regex_search(line, m, function)) {
      SassKernel k;
      k.name = m[1];
      k.arch = arch;
      if (std::smatch b; std::regex_search(k.name, b, bug)) k.bug = std::stoi(b[1]);
      k.stress = std::regex_search(k.name, stress);
      kernels.push_back(std::move(k));
    } else if (!kernels.empty() && std::regex_search(line, m, instruction)) {
      std::string ins = std::regex_replace(std::string(m[1]), predicate, "");
      if (!ins.empty() && ins[0] == '{') ins = ins.substr(ins.find_first_not_of("{ "));
      kernels.back().instructions.push_back(ins);
    }
  }
  return kernels;
}

bool sass_matches(std::string const& pattern, std::string const& instruction) {
  auto const split_at_space = [](std::string const& s) {
    auto const sp = s.find(' ');
    return std::array<std::string, 2>{s.substr(0, sp), sp == std::string::npos ? "" : s.substr(sp + 1)};
  };
  auto const [want_op, want_operands] = split_at_space(pattern);
  auto const [op, operands] = split_at_space(instruction);
  std::vector<std::string> const want = split(want_op, '.'), have = split(op, '.');
  if (want.empty() || have.empty() || want[0] != have[0]) return false;
  for (std::size_t i = 1; i < want.size(); ++i) {
    bool found = false;
    for (std::size_t j = 1; j < have.size(); ++j) found = found || have[j] == want[i];
    if (!found) return false;
  }
  return want_operands.empty() || operands.find(want_operands) != std::string::npos;
}

long sass_count(std::vector<SassKernel> const& kernels, std::string const& pattern, int bug) {
  long n = 0;
  for (auto const& k : kernels)
    if (k.bug == bug && !k.stress)
      for (auto const& ins : k.instructions) n += sass_matches(pattern, ins) ? 1 : 0;
  return n;
}

std::string cuobjdump_command() {
#ifdef TUT_CUOBJDUMP
  return TUT_CUOBJDUMP;
#else
  return "cuobjdump";
#endif
}

std::vector<SassKernel> read_sass(std::string const& file) {
  std::string const cmd = "'" + cuobjdump_command() + "' -sass '" + file + "' 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("could not run " + cuobjdump_command());
  std::string text;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe.get())) > 0;) text.append(buf.data(), n);
  int const status = pclose(pipe.release());
  if (status != 0) {
    std::string first = text.substr(0, text.find('\n'));
    throw std::runtime_error(cuobjdump_command() + " -sass " + file + " failed" + (first.empty() ? "" : ": " + first) +
                             " (scripts/setup.sh installs cuobjdump and nvdisasm)");
  }
  std::vector<SassKernel> kernels = parse_sass(text);
  int newest = 0;
  for (auto const& k : kernels) newest = std::max(newest, k.arch);
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(), [&](SassKernel const& k) { return k.arch != newest; }),
                kernels.end());
  return kernels;
}

SassReport report_sass(std::ostream& os, std::vector<SassClass> const& classes, std::vector<SassKernel> const& kernels,
                       int bug, std::string const& here_name, std::vector<SassKernel> const& previous,
                       std::string const& previous_name) {
  int n_kernels = 0;
  for (auto const& k : kernels) n_kernels += k.bug == bug && !k.stress ? 1 : 0;
  SassReport r;
  if (n_kernels == 0) {
    r.verdict = "FAIL: no kernel" + std::string(bug ? " with this bug" : "") + " in the SASS";
    return r;
  }
  int const w = 30;
  os << "  " << std::left << std::setw(w) << "class" << std::right << std::setw(10) << here_name << std::setw(10)
     << (previous_name.empty() ? "" : previous_name) << "   what\n";
  std::string missing, added;  // the classes not in the SASS; the absent ones that are
  auto row = [&](SassClass const& c, long here) {
    os << "  " << std::left << std::setw(w) << (std::string(c.pattern) + (c.absent ? ", none" : "")) << std::right
       << std::setw(10) << here << std::setw(10);
    if (previous_name.empty())
      os << "";
    else if (previous.empty())
      os << "-";
    else
      os << sass_count(previous, c.pattern, 0);
    os << "   " << c.what << '\n';
  };
  // A bug is planted in some configurations only (often a step's default): a class its kernels lack is
  // one it took out only where the same configurations' kernels as written hold it. Those are the bug-0
  // kernels whose names differ from the bug's only in the Bug argument.
  std::vector<SassKernel> written;
  if (bug != 0) {
    std::regex const this_bug("3BugE" + std::to_string(bug) + "E");
    std::set<std::string> names;
    for (auto const& k : kernels)
      if (k.bug == bug && !k.stress) names.insert(std::regex_replace(k.name, this_bug, "3BugE0E"));
    for (auto const& k : kernels)
      if (k.bug == 0 && !k.stress && names.count(k.name)) written.push_back(k);
  }
  for (auto const& c : classes) {
    long const here = sass_count(kernels, c.pattern, bug);
    row(c, here);
    if (c.absent ? here != 0 : here == 0 && (written.empty() || sass_count(written, c.pattern, 0) != 0)) {
      std::string& list = c.absent ? added : missing;
      list += (list.empty() ? "" : ", ") + std::string(c.pattern);
    }
  }
  long spills = 0;
  for (auto const& c : kSassSpills) {
    long const here = sass_count(kernels, c.pattern, bug);
    row(c, here);
    spills += here;
  }
  std::string const of = std::to_string(n_kernels) + (n_kernels == 1 ? " kernel" : " kernels");
  // What is wrong, in words, one part per kind.
  std::vector<std::string> wrong;
  if (!missing.empty())
    wrong.push_back(bug ? "the bug took " + missing + " out of the SASS" : "no " + missing + " in the SASS");
  if (!added.empty())
    wrong.push_back(bug ? "the bug put " + added + " into the SASS" : added + " in the SASS, which must hold none");
  if (spills)
    wrong.push_back(bug ? "the bug made it spill" : std::to_string(spills) + " local-memory instructions (spills)");
  std::string why;
  for (auto const& part : wrong) why += (why.empty() ? "" : "; ") + part;
  r.pass = wrong.empty();
  if (bug != 0)
    r.verdict = r.pass ? "PASS: the SASS of the " + of + " with this bug is as the step declares: it cannot see the bug"
                       : "FAIL: " + why;
  else
    r.verdict = r.pass ? "PASS: every class of this step's idea is in the SASS of its " + of +
                             (std::any_of(classes.begin(), classes.end(), [](SassClass const& c) { return c.absent; })
                                  ? ", none it must not hold,"
                                  : ",") +
                             " and nothing spills"
                       : "FAIL: " + why;
  return r;
}

}  // namespace tut
