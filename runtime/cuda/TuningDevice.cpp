//===- TuningDevice.cpp - The GPU as Tuning.cpp sees it -------------------===//
//
// The CUDA backend's answers to Tuning.cpp (common/Backend.h): the database
// key names the GPU, and the geometry heuristic gets a descriptor built from
// the GPU's properties as the driver reports them (the waiting that makes
// the clock measure kernels is in Launch.cpp, next to the launch it waits
// for).
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/DeviceDescriptors.h"
#include "Context.h"
#include "DeviceProperties.h"

#include <map>
#include <mutex>
#include <string>

namespace respec {
namespace {

/// The current GPU's properties, or null if the driver cannot give them
/// (the launch that asks has then failed already).
const cudaDeviceProp *currentProperties() {
  const cudaDeviceProp *properties = nullptr;
  if (gpu::getDeviceProperties(gpu::currentDevice(), "kernel tuning",
                               &properties) != cudaSuccess)
    return nullptr;
  return properties;
}

tuning::DeviceDescriptor describe(const cudaDeviceProp &p) {
  tuning::DeviceDescriptor d;
  d.name = p.name;
  d.vendor = "nvidia";
  d.arch = "sm_" + std::to_string(p.major * 10 + p.minor);
  d.sms = p.multiProcessorCount;
  d.warpSize = p.warpSize;
  d.maxThreadsPerSM = p.maxThreadsPerMultiProcessor;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  d.maxBlocksPerSM = p.maxBlocksPerMultiProcessor;
  d.maxWarpsPerSM = p.warpSize ? p.maxThreadsPerMultiProcessor / p.warpSize : 0;
  d.registersPerSM = p.regsPerMultiprocessor;
  d.sharedPerSM = static_cast<int64_t>(p.sharedMemPerMultiprocessor);
  d.sharedPerBlock = static_cast<int64_t>(p.sharedMemPerBlockOptin);
  d.sharedReservedPerBlock = static_cast<int64_t>(p.reservedSharedMemPerBlock);
  d.l2Bytes = p.l2CacheSize;
  return d;
}

} // namespace

std::string tuningDeviceKey() {
  const cudaDeviceProp *properties = currentProperties();
  return std::string("gpu:") + (properties ? properties->name : "unknown");
}

const tuning::DeviceDescriptor &tuningDevice() {
  // One descriptor per device ordinal, built on first use and kept (the
  // heuristic holds the reference while it decides).
  static std::mutex mutex;
  static std::map<int, tuning::DeviceDescriptor> devices;
  static const tuning::DeviceDescriptor unknown;
  std::lock_guard<std::mutex> lock(mutex);
  int device = gpu::currentDevice();
  auto found = devices.find(device);
  if (found != devices.end())
    return found->second;
  const cudaDeviceProp *properties = currentProperties();
  if (!properties)
    return unknown;
  return devices.emplace(device, describe(*properties)).first->second;
}

} // namespace respec
