// The shared-memory bank model and its printouts (tut/banks.hpp).
#include "tut/banks.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>


namespace tut::banks {

int lanes_per_phase(int bytes) {
  if (bytes != 4 && bytes != 8 && bytes != 16)
    throw std::invalid_argument("bank model: a lane moves 4, 8 or 16 bytes, not " + std::to_string(bytes));
  return kWarp * kBankBytes / bytes;  // 128 bytes per phase: 32, 16 or 8 lanes
}

namespace {

// For one phase (lanes [first, first + n)): bank -> the distinct words it must give.
std::map<int, std::set<std::int64_t>> words_by_bank(WarpAccess const& w, int first, int n) {
  std::map<int, std::set<std::int64_t>> words;
  for (int l = first; l < first + n; ++l) {
    if (w.addr[l] == kIdle) continue;
    for (int b = 0; b < w.bytes; b += kBankBytes) {
      std::int64_t const a = w.addr[l] + b;
      words[bank_of(a)].insert(a / kBankBytes);
    }
  }
  return words;
}

std::size_t most_words(std::map<int, std::set<std::int64_t>> const& words) {
  std::size_t most = 0;
  for (auto const& [bank, ws] : words) most = std::max(most, ws.size());
  return most;
}

}  // namespace

Wavefronts wavefronts(WarpAccess const& w) {
  int const n = lanes_per_phase(w.bytes);
  Wavefronts f;
  for (int first = 0; first < kWarp; first += n) {
    auto const words = words_by_bank(w, first, n);
    if (words.empty()) continue;  // no lane of this phase takes part
    f.needed += static_cast<long long>(most_words(words));
    f.ideal += 1;
  }
  return f;
}

ThreadAccesses merge_unrolled(ThreadAccesses const& a) {
  if (a.bytes != 4) return a;
  std::set<std::int64_t> const have(a.offsets.begin(), a.offsets.end());
  ThreadAccesses merged{{}, 16};
  std::set<std::int64_t> pieces;
  for (std::int64_t o : a.offsets) {
    std::int64_t const piece = o - o % 16;
    for (int w = 0; w < 16; w += 4)
      if (!have.count(piece + w)) return a;  // a partial piece: the loads stay 32-bit
    if (pieces.insert(piece).second) merged.offsets.push_back(piece);  // in order of first use
  }
  return merged;
}

std::vector<WarpAccess> warp_instructions(std::vector<ThreadAccesses> const& lanes) {
  if (lanes.empty() || int(lanes.size()) > kWarp) throw std::invalid_argument("bank model: 1 to 32 lanes");
  std::size_t const count = lanes.front().offsets.size();
  int const bytes = lanes.front().bytes;
  for (auto const& l : lanes)
    if (l.offsets.size() != count || l.bytes != bytes)
      throw std::invalid_argument("bank model: the lanes of a warp issue different instructions");
  std::vector<WarpAccess> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    out[i].bytes = bytes;
    for (std::size_t l = 0; l < lanes.size(); ++l) out[i].addr[l] = lanes[l].offsets[i];
  }
  return out;
}

std::vector<std::string> bank_map(WarpAccess const& w) {
  int const n = lanes_per_phase(w.bytes);
  std::ostringstream lane, bank;
  lane << "lane";
  bank << "bank";
  for (int l = 0; l < kWarp; ++l) {
    if (l > 0 && l % n == 0) {  // a phase boundary
      lane << " |";
      bank << " |";
    }
    lane << std::setw(3) << l;
    if (w.addr[l] == kIdle)
      bank << "  -";
    else
      bank << std::setw(3) << bank_of(w.addr[l]);
  }
  std::ostringstream worst;
  Wavefronts const f = wavefronts(w);
  worst << f.needed << " wavefront" << (f.needed == 1 ? "" : "s") << ", ideal " << f.ideal << ": ";
  std::size_t most = 1;
  int most_bank = -1;
  for (int first = 0; first < kWarp; first += n) {
    auto const words = words_by_bank(w, first, n);
    for (auto const& [b, ws] : words)
      if (ws.size() > most) {
        most = ws.size();
        most_bank = b;
      }
  }
  if (most_bank < 0)
    worst << "no bank gives two different words in one phase";
  else
    worst << "bank " << most_bank << " gives " << most << " different words in one phase";
  return {lane.str(), bank.str(), worst.str()};
}

void print_bank_maps(std::ostream& os, std::string const& title, WarpAccess const& unswizzled,
                     WarpAccess const& swizzled) {
  os << "\n  " << title << '\n';
  for (auto const& [label, w] : {std::pair{"unswizzled", &unswizzled}, std::pair{"swizzled  ", &swizzled}}) {
    auto const lines = bank_map(*w);
    os << "    " << label << "  " << lines[0] << "\n                " << lines[1] << "\n                -> " << lines[2]
       << '\n';
  }
}

void print_model_lines(std::ostream& os, std::vector<PartitionCount> const& unswizzled,
                       std::vector<PartitionCount> const& swizzled) {
  for (std::size_t i = 0; i < unswizzled.size() && i < swizzled.size(); ++i)
    for (auto const* c : {&unswizzled[i], &swizzled[i]})
      os << "  bank conflicts (model): " << c->partition << " (" << c->what << "), "
         << (c == &unswizzled[i] ? "unswizzled" : "swizzled") << ": " << c->waves.extra()
         << " extra wavefronts per k-tile\n";
}

void print_run_totals(std::ostream& os, std::vector<PartitionCount> const& counts, long long k_tile_visits,
                      std::string const& copy_op) {
  long long ld = 0, copy = 0;
  for (auto const& c : counts) (c.partition.size() > 1 && c.partition[1] == 'C' ? ld : copy) += c.waves.extra();
  ld *= k_tile_visits;
  copy *= k_tile_visits;
  os << "  bank conflicts of this run (model): ld " << ld << " st " << (copy_op == "st" ? copy : 0) << " ldgsts "
     << (copy_op == "ldgsts" ? copy : 0) << '\n';
}

}  // namespace tut::banks
