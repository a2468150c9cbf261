//===- Tuning.cpp - Choosing and timing kernel versions -------------------===//
//
// Launch functions of kernels built with several versions
// (`respec --tune=...`) ask here which version to run.
//
// Profiling (`--tune=profile`): launches of one kernel with one geometry
// cycle through the versions, so every launch still runs exactly once (a
// kernel need not be idempotent) and each version is timed on real
// launches (the first launch of each geometry warms up and is not counted).
// At exit the totals are appended to the tuning database,
// `$RESPEC_TUNING_DB` or `respec-tuning.db` in the working directory: one
// line per (device, kernel, geometry, version),
//
//   device <TAB> kernel <TAB> gx,gy,gz,bx,by,bz <TAB> version <TAB> launches
//     <TAB> total nanoseconds
//
// so databases of several runs (or machines) merge by concatenation.
//
// Otherwise (`--tune=auto`) the geometry heuristic picks the version whose
// block coarsening suits the launch (GeometryHeuristic.h).
//
// The same for the CPU and for NVIDIA GPUs: the backend names the device
// (the database key), describes it for the heuristic, and times the
// launches (on a GPU with CUDA events on the launch's stream).
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "DeviceDescriptors.h"
#include "GeometryHeuristic.h"
#include "respec_rt/abi.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

using Geometry = std::array<uint32_t, 6>;

struct Timing {
  uint64_t launches = 0;
  uint64_t nanoseconds = 0;
};

struct VersionKey {
  std::string kernel;
  Geometry geometry;
  std::string version;
  bool operator<(const VersionKey &other) const {
    return std::tie(kernel, geometry, version) <
           std::tie(other.kernel, other.geometry, other.version);
  }
};

class TuningState {
public:
  ~TuningState() { writeDatabase(); }

  int32_t nextProfiled(const char *kernel, int32_t count,
                       const Geometry &geometry) {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t &launches = launchCounts[{kernel, geometry}];
    return static_cast<int32_t>(launches++ % static_cast<uint64_t>(count));
  }

  void record(const char *kernel, const std::string &version,
              const Geometry &geometry, uint64_t nanoseconds) {
    std::lock_guard<std::mutex> lock(mutex);
    // Now, not at exit: other statics may be gone by then.
    if (device.empty())
      device = respec::tuningDeviceKey();
    // The first launch of a geometry pays for cold caches and page faults
    // of its buffers: not the version's fault, so it is not counted.
    if (warmedUp.insert({kernel, geometry}).second)
      return;
    Timing &timing = timings[{kernel, geometry, version}];
    ++timing.launches;
    timing.nanoseconds += nanoseconds;
  }

private:
  void writeDatabase() {
    if (timings.empty())
      return;
    const char *path = std::getenv("RESPEC_TUNING_DB");
    if (!path || !*path)
      path = "respec-tuning.db";
    FILE *file = std::fopen(path, "a");
    if (!file) {
      std::fprintf(stderr,
                   "respec: warning: cannot write the tuning database '%s'\n",
                   path);
      return;
    }
    for (const auto &[key, timing] : timings) {
      const Geometry &g = key.geometry;
      std::fprintf(file, "%s\t%s\t%u,%u,%u,%u,%u,%u\t%s\t%llu\t%llu\n",
                   device.c_str(), key.kernel.c_str(), g[0], g[1], g[2], g[3],
                   g[4], g[5], key.version.c_str(),
                   static_cast<unsigned long long>(timing.launches),
                   static_cast<unsigned long long>(timing.nanoseconds));
    }
    std::fclose(file);
  }

  std::mutex mutex;
  std::string device;
  std::map<std::pair<std::string, Geometry>, uint64_t> launchCounts;
  std::map<VersionKey, Timing> timings;
  std::set<std::pair<std::string, Geometry>> warmedUp;
};

TuningState &state() {
  static TuningState instance;
  return instance;
}

/// Line `index` of the newline-separated `descriptions`.
std::string versionName(const char *descriptions, int32_t index) {
  std::istringstream lines(descriptions);
  std::string line;
  for (int32_t i = 0; std::getline(lines, line); ++i)
    if (i == index)
      return line;
  return "version-" + std::to_string(index);
}

/// Total block coarsening factor of a version description
/// ("block=4,thread=2" -> 4, "block=2x2x1,..." -> 4).
int64_t blockFactor(const std::string &description) {
  size_t start = description.find("block=");
  if (start == std::string::npos)
    return 1;
  std::string factor = description.substr(start + 6);
  factor = factor.substr(0, factor.find(','));
  int64_t total = 1;
  std::istringstream dims(factor);
  std::string dim;
  while (std::getline(dims, dim, 'x'))
    total *= std::max<int64_t>(1, std::atoll(dim.c_str()));
  return total;
}

/// The version whose block factor the heuristic prefers (among versions
/// without thread coarsening when there is a choice).
int32_t heuristicChoice(const char *descriptions, int32_t count,
                        const Geometry &geometry) {
  std::vector<int64_t> factors;
  std::vector<std::string> names;
  for (int32_t i = 0; i < count; ++i) {
    names.push_back(versionName(descriptions, i));
    factors.push_back(blockFactor(names.back()));
  }
  std::vector<int64_t> available(factors);
  available.push_back(1);
  respec::tuning::LaunchShape shape;
  shape.gridBlocks = int64_t(geometry[0]) * geometry[1] * geometry[2];
  shape.blockThreads = int64_t(geometry[3]) * geometry[4] * geometry[5];
  int64_t wanted = respec::tuning::chooseBlockCoarsening(respec::tuningDevice(),
                                                         shape, available);
  int32_t best = 0;
  for (int32_t i = 0; i < count; ++i) {
    bool plain = names[i].find("thread=1") != std::string::npos;
    bool bestPlain = names[best].find("thread=1") != std::string::npos;
    if (factors[i] == wanted &&
        (factors[best] != wanted || (plain && !bestPlain)))
      best = i;
  }
  return best;
}

} // namespace

extern "C" int32_t __respec_tune_select(const char *kernel,
                                        const char *descriptions, int32_t count,
                                        int32_t mode, uint32_t gx, uint32_t gy,
                                        uint32_t gz, uint32_t bx, uint32_t by,
                                        uint32_t bz) {
  Geometry geometry = {gx, gy, gz, bx, by, bz};
  if (count <= 1)
    return 0;
  if (mode == 0)
    return state().nextProfiled(kernel, count, geometry);
  return heuristicChoice(descriptions, count, geometry);
}

extern "C" uint64_t __respec_tune_start(void) {
  return respec::startTunedTiming();
}

extern "C" void __respec_tune_record(const char *kernel,
                                     const char *descriptions, int32_t index,
                                     uint32_t gx, uint32_t gy, uint32_t gz,
                                     uint32_t bx, uint32_t by, uint32_t bz,
                                     uint64_t start) {
  uint64_t elapsed = respec::finishTunedTiming(start);
  state().record(kernel, versionName(descriptions, index),
                 {gx, gy, gz, bx, by, bz}, elapsed);
}
