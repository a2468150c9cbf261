//===- TuningDevice.cpp - The CPU as Tuning.cpp sees it -------------------===//
//
// The CPU backend's answers to Tuning.cpp (common/Backend.h): the database
// key names the CPU and the number of OpenMP threads (a version's speed
// depends on both), the heuristic gets the host-cpu descriptor, and nothing
// needs waiting for: a launch function returns when its grid has run.
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/DeviceDescriptors.h"
#include "DeviceProperties.h"

#include <chrono>
#include <string>

extern "C" int omp_get_max_threads(void) __attribute__((weak));

namespace respec {

std::string tuningDeviceKey() {
  int threads = omp_get_max_threads ? omp_get_max_threads() : 1;
  return "cpu:" + std::string(cpu::deviceProperties().name) +
         ":threads=" + std::to_string(threads);
}

const tuning::DeviceDescriptor &tuningDevice() {
  static const tuning::DeviceDescriptor device = [] {
    // The [host-cpu] entry of runtime/data/devices.txt (programs do not
    // read the data file).
    tuning::DeviceDescriptor cpu;
    cpu.name = "host-cpu";
    cpu.vendor = "cpu";
    cpu.arch = "host";
    cpu.warpSize = 32;
    cpu.maxThreadsPerSM = 1024;
    cpu.maxThreadsPerBlock = 1024;
    cpu.maxBlocksPerSM = 1;
    cpu.maxWarpsPerSM = 32;
    cpu.sharedPerSM = cpu.sharedPerBlock = 99 * 1024;
    cpu.sharedAllocationUnit = 64;
    return tuning::hostCPUDescriptor(cpu);
  }();
  return device;
}

// Launches on the CPU return when their blocks are done: the wall clock
// measures them. The token is the start time.
uint64_t startTunedTiming() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

uint64_t finishTunedTiming(uint64_t token) {
  return startTunedTiming() - token;
}

} // namespace respec
