//===- DeviceProperties.cpp - cudaDeviceProp of the CPU device ------------===//
//
// The properties are an honest description of the host: its name (prefixed
// so users see the respec CPU device), one multiprocessor per online core,
// all physical memory as global memory. Limits that programs size their
// launches by (threads per block, grid size, shared memory, warp size) are
// those of an sm_80 GPU, which is also the compute capability reported:
// respec accepts any launch that such a GPU accepts.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

namespace respec {
namespace cpu {
namespace {

/// The value of the first "key : value" line of /proc/cpuinfo with `key`.
std::string cpuinfoField(const char *key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  size_t keyLength = std::strlen(key);
  while (std::getline(cpuinfo, line)) {
    if (line.compare(0, keyLength, key) != 0)
      continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return std::string();
}

int onlineCores() {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(cores) : 1;
}

size_t physicalMemory() {
  return static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

int cacheBytes(int name, int fallback) {
  long bytes = sysconf(name);
  return bytes > 0 ? static_cast<int>(bytes) : fallback;
}

void fillName(cudaDeviceProp &prop) {
  std::string model = cpuinfoField("model name");
  if (model.empty())
    model = cpuinfoField("Model"); // AArch64 kernels
  if (model.empty())
    model = "host CPU";
  std::snprintf(prop.name, sizeof(prop.name), "respec CPU device (%s)",
                model.c_str());
}

void fillLimits(cudaDeviceProp &prop) {
  prop.warpSize = 32;
  prop.maxThreadsPerBlock = 1024;
  prop.maxThreadsDim[0] = 1024;
  prop.maxThreadsDim[1] = 1024;
  prop.maxThreadsDim[2] = 64;
  prop.maxGridSize[0] = 2147483647;
  prop.maxGridSize[1] = 65535;
  prop.maxGridSize[2] = 65535;
  prop.sharedMemPerBlock = sharedMemPerBlockDefault;
  prop.sharedMemPerBlockOptin = sharedMemPerBlockOptin;
  prop.sharedMemPerMultiprocessor = 167936;
  prop.reservedSharedMemPerBlock = 1024;
  prop.regsPerBlock = 65536;
  prop.regsPerMultiprocessor = 65536;
  prop.maxThreadsPerMultiProcessor = 2048;
  prop.maxBlocksPerMultiProcessor = 32;
  prop.totalConstMem = 65536;
  prop.memPitch = 2147483647;
  prop.textureAlignment = 512;
  prop.texturePitchAlignment = 32;
  prop.surfaceAlignment = 512;
  // An sm_80 GPU's texture and surface limits, which CUDA arrays and
  // texture objects are checked against (Arrays.cpp). Mipmaps, cubemaps
  // and gathers are not supported: 0.
  prop.maxTexture1D = 131072;
  prop.maxTexture2D[0] = 131072;
  prop.maxTexture2D[1] = 65536;
  prop.maxTexture2DLinear[0] = 131072;
  prop.maxTexture2DLinear[1] = 65000;
  prop.maxTexture2DLinear[2] = 2097120;
  for (int &size : prop.maxTexture3D)
    size = 16384;
  prop.maxTexture1DLayered[0] = 32768;
  prop.maxTexture1DLayered[1] = 2048;
  prop.maxTexture2DLayered[0] = 32768;
  prop.maxTexture2DLayered[1] = 32768;
  prop.maxTexture2DLayered[2] = 2048;
  prop.maxSurface1D = 32768;
  prop.maxSurface2D[0] = 131072;
  prop.maxSurface2D[1] = 65536;
  for (int &size : prop.maxSurface3D)
    size = 16384;
  prop.maxSurface1DLayered[0] = 32768;
  prop.maxSurface1DLayered[1] = 2048;
  prop.maxSurface2DLayered[0] = 32768;
  prop.maxSurface2DLayered[1] = 32768;
  prop.maxSurface2DLayered[2] = 2048;
}

void fillCapabilities(cudaDeviceProp &prop) {
  prop.major = 8;
  prop.minor = 0;
  prop.integrated = 1; // device memory is host memory
  prop.canMapHostMemory = 1;
  prop.concurrentKernels = 1;
  prop.asyncEngineCount = 1;
  prop.unifiedAddressing = 1;
  prop.managedMemory = 1;
  prop.concurrentManagedAccess = 1;
  prop.pageableMemoryAccess = 1;
  prop.pageableMemoryAccessUsesHostPageTables = 1;
  prop.directManagedMemAccessFromHost = 1;
  prop.hostNativeAtomicSupported = 1;
  prop.canUseHostPointerForRegisteredMem = 1;
  prop.hostRegisterSupported = 1;
  prop.streamPrioritiesSupported = 1;
  prop.globalL1CacheSupported = 1;
  prop.localL1CacheSupported = 1;
  prop.computePreemptionSupported = 1;
  prop.cooperativeLaunch = 1; // cudaLaunchCooperativeKernel
  prop.unifiedFunctionPointers = 1;
  prop.deviceNumaId = -1;
  prop.hostNumaId = -1;
}

cudaDeviceProp describeHost() {
  cudaDeviceProp prop;
  std::memset(&prop, 0, sizeof(prop));
  fillName(prop);
  std::memcpy(prop.uuid.bytes, "respec-cpu-dev-0", 16);
  prop.totalGlobalMem = physicalMemory();
  prop.multiProcessorCount = onlineCores();
  prop.l2CacheSize = cacheBytes(_SC_LEVEL2_CACHE_SIZE, 1 << 20);
  prop.memoryBusWidth = 64;
  fillLimits(prop);
  fillCapabilities(prop);
  return prop;
}

} // namespace

const cudaDeviceProp &deviceProperties() {
  static const cudaDeviceProp properties = describeHost();
  return properties;
}

int cpuClockKHz() {
  static const int kHz = [] {
    std::string mhz = cpuinfoField("cpu MHz");
    double value = mhz.empty() ? 0.0 : std::atof(mhz.c_str());
    return value > 0 ? static_cast<int>(value * 1000.0) : 1000000;
  }();
  return kHz;
}

} // namespace cpu
} // namespace respec
