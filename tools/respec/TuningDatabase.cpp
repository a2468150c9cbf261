//===- TuningDatabase.cpp - Reading respec's tuning database --------------===//

#include "TuningDatabase.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace respec {

namespace {

struct Totals {
  uint64_t launches = 0;
  uint64_t nanoseconds = 0;
  double mean() const { return launches ? double(nanoseconds) / launches : 0; }
};

/// kernel -> geometry -> version -> totals (records of several runs add up).
using Records =
    std::map<std::string, std::map<std::string, std::map<std::string, Totals>>>;

bool parseRecords(StringRef path, StringRef text, StringRef devicePrefix,
                  Records &records) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [number, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    SmallVector<StringRef> fields;
    line.split(fields, '\t');
    uint64_t launches, nanoseconds;
    if (fields.size() != 6 || fields[4].getAsInteger(10, launches) ||
        fields[5].getAsInteger(10, nanoseconds)) {
      errs() << path << ":" << number + 1
             << ": error: malformed tuning record (expected device, kernel, "
                "geometry, version, launches and nanoseconds separated by "
                "tabs)\n";
      return false;
    }
    if (!fields[0].starts_with(devicePrefix))
      continue;
    Totals &totals = records[fields[1].str()][fields[2].str()][fields[3].str()];
    totals.launches += launches;
    totals.nanoseconds += nanoseconds;
  }
  return true;
}

} // namespace

bool applyTuningDatabase(StringRef path, StringRef devicePrefix,
                         mlir::respec::TuningOptions &tuning) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
  if (!file) {
    errs() << "respec: error: cannot read the tuning database '" << path
           << "': " << file.getError().message() << "\n";
    return false;
  }
  Records records;
  if (!parseRecords(path, (*file)->getBuffer(), devicePrefix, records))
    return false;
  for (const auto &[kernel, geometries] : records) {
    // The winner of each geometry; the geometry that took longest decides
    // launches of geometries the database has not seen.
    MapVector<std::string, unsigned, std::map<std::string, unsigned>>
        winners;
    SmallVector<std::pair<std::string, unsigned>> table;
    double heaviest = -1;
    unsigned fallback = 0;
    for (const auto &[geometry, versions] : geometries) {
      const std::string *best = nullptr;
      double bestMean = 0, total = 0;
      for (const auto &[version, totals] : versions) {
        total += double(totals.nanoseconds);
        if (!best || totals.mean() < bestMean) {
          best = &version;
          bestMean = totals.mean();
        }
      }
      unsigned index = winners.insert({*best, winners.size()}).first->second;
      table.push_back({geometry, index});
      if (total > heaviest) {
        heaviest = total;
        fallback = index;
      }
    }
    std::string candidates = kernel + "=";
    for (auto [i, winner] : llvm::enumerate(winners))
      candidates += (i ? ";" : "") + winner.first;
    tuning.kernelCandidates.push_back(candidates);
    if (winners.size() < 2)
      continue;
    for (const auto &[geometry, index] : table) {
      std::string key = geometry;
      std::replace(key.begin(), key.end(), ',', '/');
      tuning.kernelGeometry.push_back(kernel + "=" + key + ":" +
                                      std::to_string(index));
    }
    tuning.kernelGeometry.push_back(kernel + "=default:" +
                                    std::to_string(fallback));
  }
  return true;
}

} // namespace respec
